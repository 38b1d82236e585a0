import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { inWorkspace } from "../domain/Principal.js"
import { Deliveries } from "./Deliveries.js"

export const DeliveriesHttpLive = HttpApiBuilder.group(ClipwrightApi, "deliveries", (handlers) =>
  Effect.gen(function*() {
    const deliveries = yield* Deliveries
    return handlers
      .handle("list", ({ urlParams }) => inWorkspace((workspaceId) => deliveries.list(workspaceId, urlParams.limit)))
      .handle("get", ({ path }) => inWorkspace((workspaceId) => deliveries.get(workspaceId, path.id)))
      .handle("redeliver", ({ path }) => inWorkspace((workspaceId) => deliveries.redeliver(workspaceId, path.id)))
  }))
