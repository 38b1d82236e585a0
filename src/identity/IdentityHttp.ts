import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { CurrentPrincipal } from "../domain/Principal.js"

export const IdentityHttpLive = HttpApiBuilder.group(ClipwrightApi, "identity", (handlers) =>
  handlers.handle("whoami", () =>
    Effect.map(CurrentPrincipal, (p) => ({
      accountId: p.accountId,
      accountName: p.accountName,
      scopes: p.scopes,
      kind: p.kind
    }))))
