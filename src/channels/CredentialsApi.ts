import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, NotFound, SchemaValidation } from "../domain/Errors.js"
import { deprecatedDoc } from "../http/ApiDocs.js"
import { workspaceGroup } from "../http/ApiGroups.js"
import { IdPath } from "../http/ApiPaths.js"
import { CredentialField, CredentialsBody } from "./Credential.js"
import { Connections, ModeBody } from "./Credential.js"

export class CredentialsApi extends HttpApiGroup.make("credentials")
  .add(
    HttpApiEndpoint.put("put", "/channels/:id/credentials")
      .setPath(IdPath)
      .setPayload(CredentialsBody)
      .addSuccess(Schema.Struct({ channelId: Schema.String, fields: Schema.Array(CredentialField) }))
      .addError(NotFound)
      .annotateContext(
        deprecatedDoc(
          "Store a channel's platform credentials",
          "Replaces the channel's credential fields with `fields` (at most 32, each key once: a repeated " +
            "key is 400 at /fields/<i>/key). Values are stored in the database as given and nothing reads them; a " +
            "secret (the default) is shown masked from then on. Answers the fields as stored."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("delete", "/channels/:id/credentials/delete")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ deleted: Schema.Literal(true), forgotten: Schema.Number }))
      .addError(NotFound)
      .annotateContext(
        deprecatedDoc(
          "Forget a channel's platform credentials",
          "Forgets every stored credential field; `forgotten` counts them."
        )
      )
  )
  .addError(SchemaValidation)
  .pipe(
    workspaceGroup(
      "Channel credentials (deprecated)",
      "Deprecated: platform credential fields stored per channel for self-hosted connectors; never used by the service."
    )
  )
{}

export class ConnectionsApi extends HttpApiGroup.make("connections")
  .add(
    HttpApiEndpoint.get("list", "/connections")
      .addSuccess(Connections)
      .annotateContext(
        deprecatedDoc(
          "Show the connection mode and stored credentials",
          "Always `SELF_HOSTED`; `endpoint` is this service's API base; `channels` lists the live " +
            "channels holding credential fields, each field with secrets masked."
        )
      )
  )
  .add(
    HttpApiEndpoint.put("mode", "/connections/mode")
      .setPayload(ModeBody)
      .addSuccess(Schema.Struct({ mode: Schema.Literal("SELF_HOSTED") }))
      .addError(Conflict)
      .annotateContext(
        deprecatedDoc(
          "Set the connection mode",
          "Only `SELF_HOSTED` is accepted and answered; `MANAGED` is 409 `conflict`; anything else is " +
            "400 at /mode."
        )
      )
  )
  .addError(SchemaValidation)
  .pipe(
    workspaceGroup(
      "Connections (deprecated)",
      "Deprecated: how published work reached the platforms before managed delivery."
    )
  )
{}
