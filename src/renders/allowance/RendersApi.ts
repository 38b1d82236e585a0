import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, SchemaValidation } from "../../domain/Errors.js"
import { doc } from "../../http/ApiDocs.js"
import { workspaceGroup } from "../../http/ApiGroups.js"
import { QuotaBlock, QuotaOverview } from "./Quota.js"

const ownerOnly = "Changes what the workspace pays for. The signed-in owner only (a session cookie from " +
  "`/console/sign-in`): every API key, and every colleague who is not the owner, is refused with 403."

const Renders = Schema.Int.pipe(Schema.greaterThanOrEqualTo(1), Schema.lessThanOrEqualTo(1_000_000))

/** What a change to the extra renders answers: this month's quota and next month's extra renders. */
const ExtrasAnswer = Schema.Struct({
  quota: QuotaBlock,
  nextPeriod: Schema.Struct({ periodStart: Schema.String, periodEnd: Schema.String, extra: Schema.Number })
})

export class RendersApi extends HttpApiGroup.make("renders")
  .add(
    HttpApiEndpoint.get("quota", "/renders/quota")
      .addSuccess(QuotaOverview)
      .annotateContext(
        doc(
          "Show the render quota",
          "The render allowance of this month (`used`: videos finished), seats, partners (not offered yet: always 0 " +
            "of 0) and storage (media library and rendered clips; `used` and `max` in MB)."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("buy", "/renders/buy")
      .setPayload(Schema.Struct({ renders: Renders }))
      .addSuccess(ExtrasAnswer)
      .annotateContext(
        doc(
          "Buy extra renders",
          `${ownerOnly} Adds \`renders\` extra videos to this month's allowance (\`quota.extra\`), up to the ceiling ` +
            "the operator sets per workspace (`admin limits set --extra-ceiling`; none by default). Over it: 409 " +
            "`conflict`, saying how many more may be bought."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("keep", "/renders/keep")
      .setPayload(Schema.Struct({ renders: Schema.optional(Renders) }))
      .addSuccess(ExtrasAnswer)
      .annotateContext(
        doc(
          "Keep unused extra renders for next month",
          `${ownerOnly} Carries \`renders\` (absent: all) of this month's unused extra renders into next month ` +
            "(`nextPeriod.extra`); they leave this month. The allowance is spent before extra renders. More than are " +
            "unused, none unused, or next month over the ceiling: 409 `conflict`."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("drop", "/renders/drop")
      .setPayload(Schema.Struct({ renders: Schema.optional(Renders) }))
      .addSuccess(ExtrasAnswer)
      .annotateContext(
        doc(
          "Drop unused extra renders",
          `${ownerOnly} Gives up \`renders\` (absent: all) of this month's unused extra renders. More than are ` +
            "unused, or none unused: 409 `conflict`."
        )
      )
  )
  .addError(Conflict)
  .addError(SchemaValidation)
  .pipe(workspaceGroup("Renders", "The monthly render allowance, seats and storage, and what the workspace pays for."))
{}
