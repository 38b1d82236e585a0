import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { inWorkspace } from "../../domain/Principal.js"
import { Jobs } from "./Jobs.js"

export const JobsHttpLive = HttpApiBuilder.group(ClipwrightApi, "jobs", (handlers) =>
  Effect.gen(function*() {
    const jobs = yield* Jobs
    return handlers
      .handle("list", ({ urlParams }) => inWorkspace((workspaceId) => jobs.jobs(workspaceId, urlParams)))
      .handle("posts", ({ urlParams }) => inWorkspace((workspaceId) => jobs.posts(workspaceId, urlParams)))
  }))
