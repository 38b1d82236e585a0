import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { NotFound, UpstreamUnavailable } from "../domain/Errors.js"
import { doc } from "../http/ApiDocs.js"

export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Schema.Struct({ status: Schema.Literal("ok") }))
      .addError(UpstreamUnavailable)
      .annotateContext(
        doc("Check the node's health", "200 once the node serves (database migrated, runner registered), 503 before.")
      )
  )
  .add(
    HttpApiEndpoint.get("errorPage", "/errors/:code")
      .setPath(Schema.Struct({ code: Schema.String }))
      .addSuccess(HttpApiSchema.Text({ contentType: "text/html; charset=utf-8" }))
      .addError(NotFound)
      .annotateContext(
        doc("Show an error code's page", "A short human-readable page for each error code (the `type` of every error).")
      )
  )
  .annotate(OpenApi.Title, "System")
  .annotate(OpenApi.Description, "Health, and the error pages every error's `type` links to. No credential.")
{}
