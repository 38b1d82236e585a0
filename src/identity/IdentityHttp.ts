import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { CurrentWorkspace } from "../domain/Principal.js"

export const IdentityHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "identity",
  (handlers) =>
    handlers.handle("whoami", () =>
      Effect.map(CurrentWorkspace, (p) => ({
        accountId: p.workspaceId,
        accountName: p.workspaceName,
        scopes: p.scopes,
        kind: p.kind
      })))
)
