import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { inWorkspace } from "../../domain/Principal.js"
import { Quotas } from "./Quotas.js"

/** Buy, keep and drop reach here only for the signed-in owner: Authentication refuses keys and other roles. */
export const RendersHttpLive = HttpApiBuilder.group(ClipwrightApi, "renders", (handlers) =>
  Effect.gen(function*() {
    const quotas = yield* Quotas
    return handlers
      .handle("quota", () => inWorkspace(quotas.overview))
      .handle("buy", ({ payload }) => inWorkspace((id) => quotas.buy(id, payload.renders)))
      .handle("keep", ({ payload }) => inWorkspace((id) => quotas.keep(id, payload.renders)))
      .handle("drop", ({ payload }) => inWorkspace((id) => quotas.drop(id, payload.renders)))
  }))
