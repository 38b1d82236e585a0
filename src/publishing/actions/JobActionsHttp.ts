import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { inWorkspace } from "../../domain/Principal.js"
import { JobActions } from "./JobActions.js"

export const JobActionsHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "jobActions",
  (handlers) =>
    Effect.gen(function*() {
      const actions = yield* JobActions
      return handlers
        .handle("cancel", ({ path }) => inWorkspace((workspaceId) => actions.cancel(workspaceId, path.id)))
        .handle(
          "update",
          ({ path, payload }) => inWorkspace((workspaceId) => actions.update(workspaceId, path.id, payload))
        )
        .handle("delete", ({ path }) => inWorkspace((workspaceId) => actions.remove(workspaceId, path.id)))
        .handle("repost", ({ path }) => inWorkspace((workspaceId) => actions.repost(workspaceId, path.id)))
    })
)
