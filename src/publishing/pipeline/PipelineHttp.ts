import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { inWorkspace } from "../../domain/Principal.js"
import { PipelineViews } from "./PipelineViews.js"

export const PipelineHttpLive = HttpApiBuilder.group(ClipwrightApi, "pipeline", (handlers) =>
  Effect.gen(function*() {
    const views = yield* PipelineViews
    return handlers
      .handle("show", ({ urlParams }) => inWorkspace((workspaceId) => views.pipeline(workspaceId, urlParams.limit)))
      .handle("job", ({ path }) => inWorkspace((workspaceId) => views.job(workspaceId, path.id)))
      .handle("overview", () => inWorkspace((workspaceId) => views.overview(workspaceId)))
      .handle("calendar", ({ urlParams }) => inWorkspace((workspaceId) => views.calendar(workspaceId, urlParams)))
  }))
