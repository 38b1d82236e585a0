import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, NotFound, SchemaValidation } from "../domain/Errors.js"
import { Authentication } from "../http/Security.js"
import { CredentialField, CredentialsBody } from "./Credential.js"
import { Connections, ModeBody } from "./Credential.js"

const IdPath = Schema.Struct({ id: Schema.String })
const deprecated = "Deprecated (answers carry `Deprecation: true`; removed in the next major release). "

export class CredentialsApi extends HttpApiGroup.make("credentials")
  .add(
    HttpApiEndpoint.put("put", "/channels/:id/credentials")
      .setPath(IdPath)
      .setPayload(CredentialsBody)
      .addSuccess(Schema.Struct({ channelId: Schema.String, fields: Schema.Array(CredentialField) }))
      .addError(NotFound)
      .annotate(OpenApi.Deprecated, true)
      .annotate(OpenApi.Summary, "Store a channel's platform credentials")
      .annotate(
        OpenApi.Description,
        deprecated + "Replaces the channel's credential fields with `fields` (at most 32, each key once: a repeated " +
          "key is 400 at /fields/<i>/key). Values are stored in the database as given and nothing reads them; a " +
          "secret (the default) is shown masked from then on. Answers the fields as stored."
      )
  )
  .add(
    HttpApiEndpoint.post("delete", "/channels/:id/credentials/delete")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ deleted: Schema.Literal(true), forgotten: Schema.Number }))
      .addError(NotFound)
      .annotate(OpenApi.Deprecated, true)
      .annotate(OpenApi.Summary, "Forget a channel's platform credentials")
      .annotate(OpenApi.Description, deprecated + "Forgets every stored credential field; `forgotten` counts them.")
  )
  .addError(SchemaValidation)
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Channel credentials (deprecated)")
  .annotate(
    OpenApi.Description,
    "Deprecated: platform credential fields stored per channel for self-hosted connectors; never used by the service."
  )
{}

export class ConnectionsApi extends HttpApiGroup.make("connections")
  .add(
    HttpApiEndpoint.get("list", "/connections")
      .addSuccess(Connections)
      .annotate(OpenApi.Deprecated, true)
      .annotate(OpenApi.Summary, "Show the connection mode and stored credentials")
      .annotate(
        OpenApi.Description,
        deprecated + "Always `SELF_HOSTED`; `endpoint` is this service's API base; `channels` lists the live " +
          "channels holding credential fields, each field with secrets masked."
      )
  )
  .add(
    HttpApiEndpoint.put("mode", "/connections/mode")
      .setPayload(ModeBody)
      .addSuccess(Schema.Struct({ mode: Schema.Literal("SELF_HOSTED") }))
      .addError(Conflict)
      .annotate(OpenApi.Deprecated, true)
      .annotate(OpenApi.Summary, "Set the connection mode")
      .annotate(
        OpenApi.Description,
        deprecated + "Only `SELF_HOSTED` is accepted and answered; `MANAGED` is 409 `conflict`; anything else is " +
          "400 at /mode."
      )
  )
  .addError(SchemaValidation)
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Connections (deprecated)")
  .annotate(OpenApi.Description, "Deprecated: how published work reached the platforms before managed delivery.")
{}
