import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { actorOf, CurrentWorkspace, inWorkspace } from "../../domain/Principal.js"
import { Approvals } from "./Approvals.js"

export const ApprovalsHttpLive = HttpApiBuilder.group(ClipwrightApi, "approvals", (handlers) =>
  Effect.gen(function*() {
    const approvals = yield* Approvals
    return handlers
      .handle("list", ({ urlParams }) => inWorkspace((workspaceId) => approvals.list(workspaceId, urlParams)))
      .handle("decide", ({ path, payload }) =>
        Effect.flatMap(CurrentWorkspace, (caller) =>
          approvals.decide(caller.workspaceId, path.id, payload, actorOf(caller))))
  }))
