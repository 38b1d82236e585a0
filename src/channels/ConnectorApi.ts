import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { NotFound } from "../domain/Errors.js"
import { deprecatedDoc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"

const EnvVariable = Schema.Struct({
  name: Schema.String,
  value: Schema.NullOr(Schema.String),
  secret: Schema.Boolean,
  description: Schema.String
})

const AdapterSurface = Schema.Struct({
  surface: Schema.String,
  label: Schema.String,
  ratios: Schema.Array(Schema.String)
})

const Adapter = Schema.Struct({
  platform: Schema.String,
  surfaces: Schema.Array(AdapterSurface),
  events: Schema.Array(Schema.String),
  signature: Schema.String,
  answer: Schema.String
})

export class ConnectorApi extends HttpApiGroup.make("connector")
  .add(
    HttpApiEndpoint.get("env", "/connector/env")
      .addSuccess(Schema.Struct({ variables: Schema.Array(EnvVariable) }))
      .annotateContext(
        deprecatedDoc(
          "Connector environment",
          "The environment variables a self-hosted connector runs with: this service's base URL, the " +
            "workspace, its webhook address (null until set) and the webhook secret (never shown here: null)."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("script", "/connector/script/:language")
      .setPath(Schema.Struct({ language: Schema.String }))
      .addSuccess(Schema.Struct({ language: Schema.String, filename: Schema.String, script: Schema.String }))
      .addError(NotFound)
      .annotateContext(
        deprecatedDoc(
          "Connector reference receiver",
          "A small webhook receiver in `node` or `python` that checks the Standard Webhooks signature " +
            "and timestamp of each delivery. Another language: 404 `not_found`."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("adapter", "/connector/adapters/:platform")
      .setPath(Schema.Struct({ platform: Schema.String }))
      .addSuccess(Adapter)
      .addError(NotFound)
      .annotateContext(
        deprecatedDoc(
          "Connector adapter for a platform",
          "What a connector adapter for one platform receives: its surfaces and ratios, the delivery " +
            "events, how they are signed, and what the receiver may answer. An unknown platform: 404 `not_found`."
        )
      )
  )
  .pipe(
    workspaceGroup(
      "Self-hosted connector (deprecated)",
      "Deprecated: what a self-hosted connector between deliveries and platforms needs."
    )
  )
{}
