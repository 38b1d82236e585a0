import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authentication } from "../http/Security.js"

export const WhoAmI = Schema.Struct({
  accountId: Schema.String,
  accountName: Schema.String,
  scopes: Schema.Array(Schema.String),
  kind: Schema.String
})

export class IdentityApi extends HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.get("whoami", "/whoami")
      .annotate(OpenApi.Summary, "Show the calling key")
      .addSuccess(WhoAmI)
      .annotate(OpenApi.Description, "The calling key's workspace and permissions; any valid key may call it.")
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Identity")
  .annotate(OpenApi.Description, "The calling key: its workspace and permissions.")
{}
