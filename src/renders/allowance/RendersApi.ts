import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { QuotaOverview } from "./Quota.js"
import { Authentication } from "../../http/Security.js"

const ownerOnly = "Changes what the workspace pays for. Signed-in owners only: every API key is refused with 403."

export class RendersApi extends HttpApiGroup.make("renders")
  .add(
    HttpApiEndpoint.get("quota", "/renders/quota")
      .annotate(OpenApi.Summary, "Show the render quota")
      .addSuccess(QuotaOverview)
      .annotate(
        OpenApi.Description,
        "The render allowance of this month (`used`: videos finished), seats, partners (not offered yet: always 0 " +
          "of 0) and storage (media library and rendered clips; `used` and `max` in MB)."
      )
  )
  .add(
    HttpApiEndpoint.post("buy", "/renders/buy")
      .addSuccess(Schema.Void)
      .annotate(OpenApi.Summary, "Buy renders")
      .annotate(OpenApi.Description, ownerOnly)
  )
  .add(
    HttpApiEndpoint.post("keep", "/renders/keep")
      .addSuccess(Schema.Void)
      .annotate(OpenApi.Summary, "Keep renders")
      .annotate(OpenApi.Description, ownerOnly)
  )
  .add(
    HttpApiEndpoint.post("drop", "/renders/drop")
      .addSuccess(Schema.Void)
      .annotate(OpenApi.Summary, "Drop renders")
      .annotate(OpenApi.Description, ownerOnly)
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Renders")
  .annotate(OpenApi.Description, "The monthly render allowance, seats and storage, and what the workspace pays for.")
{}
