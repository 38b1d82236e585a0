import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { Entitlements } from "./Entitlements.js"

export const FeedsAdminHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "adminFeeds",
  (handlers) =>
    Effect.map(
      Entitlements,
      (entitlements) =>
        handlers.handle("setEntitlements", ({ path, payload }) => entitlements.set(path.accountId, payload.sources))
    )
)
