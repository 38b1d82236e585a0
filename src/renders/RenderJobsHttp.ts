import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { CurrentPrincipal } from "../domain/Principal.js"
import { RenderJobs } from "./RenderJobs.js"

export const RenderJobsHttpLive = HttpApiBuilder.group(ClipwrightApi, "renderJobs", (handlers) =>
  Effect.gen(function*() {
    const jobs = yield* RenderJobs
    return handlers
      .handle("list", ({ urlParams }) => Effect.flatMap(CurrentPrincipal, (p) => jobs.list(p.accountId, urlParams)))
      .handle("package", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (p) => jobs.renderPackage(p.accountId, path.id)))
  }))
