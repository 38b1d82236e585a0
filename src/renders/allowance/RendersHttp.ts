import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { Forbidden } from "../../domain/Errors.js"
import { inWorkspace } from "../../domain/Principal.js"
import { Quotas } from "./Quotas.js"

// Authentication refuses every credential that exists today (keys have no role); people signing in come later.
const ownerOnly = () => Effect.fail(new Forbidden({ message: "Only a signed-in owner may change what the workspace pays for." }))

export const RendersHttpLive = HttpApiBuilder.group(ClipwrightApi, "renders", (handlers) =>
  Effect.gen(function*() {
    const quotas = yield* Quotas
    return handlers
      .handle("quota", () => inWorkspace(quotas.overview))
      .handle("buy", ownerOnly)
      .handle("keep", ownerOnly)
      .handle("drop", ownerOnly)
  }))
