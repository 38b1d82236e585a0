import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../../Api.js"
import { Quotas } from "./Quotas.js"

export const AdminLimitsHttpLive = HttpApiBuilder.group(
  ClipwrightApi,
  "adminLimits",
  (handlers) =>
    Effect.map(
      Quotas,
      (quotas) =>
        handlers.handle("setLimits", ({ path, payload }) =>
          quotas.setLimits(path.accountId, payload).pipe(Effect.map((quota) => ({ quota }))))
    )
)
