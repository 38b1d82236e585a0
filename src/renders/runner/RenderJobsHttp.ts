import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { inWorkspace } from "../../domain/Principal.js"
import { RenderJobs } from "./RenderJobs.js"

export const RenderJobsHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "renderJobs",
  (handlers) =>
    Effect.gen(function*() {
      const jobs = yield* RenderJobs
      return handlers
        .handle("list", ({ urlParams }) => inWorkspace((workspaceId) => jobs.list(workspaceId, urlParams)))
        .handle("package", ({ path }) => inWorkspace((workspaceId) => jobs.renderPackage(workspaceId, path.id)))
    })
)
