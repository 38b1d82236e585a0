import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { NotFound } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { adminGroup } from "../../http/ApiGroups.js"
import { AccountPath } from "../../identity/AdminApi.js"
import { QuotaBlock } from "./Quota.js"

// The limits are PostgreSQL `integer` columns: a larger number would be a 500 there.
const NonNegativeInt = Schema.Int.pipe(Schema.nonNegative(), Schema.lessThanOrEqualTo(2_147_483_647))

/** The operator's limits route: it answers the render quota, so it lives with the allowance it changes. */
export class AdminLimitsApi extends HttpApiGroup.make("adminLimits")
  .add(
    HttpApiEndpoint.put("setLimits", "/workspaces/:accountId/limits")
      .annotateContext(
        doc(
          "Set a workspace's limits",
          "Any of `renderAllowance` (videos a month), `storageMb`, `seats` and `extraCeiling` (extra renders the " +
            "owner may buy per month on top of the allowance with `/v1/renders/buy`; 0, the default, allows none); " +
            "answers the quota as `/v1/renders/quota` does."
        )
      )
      .setPath(AccountPath)
      .setPayload(Schema.Struct({
        renderAllowance: Schema.optional(NonNegativeInt),
        storageMb: Schema.optional(NonNegativeInt),
        seats: Schema.optional(NonNegativeInt),
        extraCeiling: Schema.optional(NonNegativeInt)
      }))
      .addSuccess(Schema.Struct({ quota: QuotaBlock }))
      .addError(NotFound)
  )
  .pipe(adminGroup)
{}
