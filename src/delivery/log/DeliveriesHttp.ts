import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { hasPermission } from "../../domain/Permissions.js"
import { CurrentWorkspace, inWorkspace, type WorkspaceId } from "../../domain/Principal.js"
import { Deliveries } from "./Deliveries.js"
import { RECEIPTS_SHOWN_TO } from "./ReceiptRedaction.js"

/** The caller's workspace, and whether it may see receipt links. */
const asCaller = <A, E, R>(f: (workspaceId: WorkspaceId, showReceipts: boolean) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(CurrentWorkspace, (caller) => f(caller.workspaceId, hasPermission(caller.scopes, RECEIPTS_SHOWN_TO)))

export const DeliveriesHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "deliveries",
  (handlers) =>
    Effect.gen(function*() {
      const deliveries = yield* Deliveries
      return handlers
        .handle("list", ({ urlParams }) => inWorkspace((workspaceId) => deliveries.list(workspaceId, urlParams.limit)))
        .handle(
          "get",
          ({ path }) => asCaller((workspaceId, showReceipts) => deliveries.get(workspaceId, path.id, showReceipts))
        )
        .handle(
          "redeliver",
          ({ path }) =>
            asCaller((workspaceId, showReceipts) => deliveries.redeliver(workspaceId, path.id, showReceipts))
        )
    })
)
