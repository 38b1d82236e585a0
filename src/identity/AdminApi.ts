import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { BlockedUrl, Conflict, NotFound, SchemaValidation } from "../domain/Errors.js"
import { WorkspaceId } from "../domain/Principal.js"
import { MemberRole } from "./Member.js"
import { AdminAuthentication } from "../http/Security.js"

export const AccountPath = Schema.Struct({ accountId: WorkspaceId })
const Email = Schema.String.pipe(Schema.pattern(/^[^@\s]+@[^@\s]+$/, { message: () => "an email address" }))

export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.post("createWorkspace", "/workspaces")
      .setPayload(Schema.Struct({
        name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(120)),
        ownerEmail: Schema.optional(Email)
      }))
      .addSuccess(Schema.Struct({ accountId: Schema.String, accountName: Schema.String }), { status: 201 })
  )
  .add(
    HttpApiEndpoint.post("createKey", "/workspaces/:accountId/keys")
      .setPath(AccountPath)
      .setPayload(Schema.Struct({
        scopes: Schema.Array(Schema.String),
        name: Schema.optional(Schema.String.pipe(Schema.maxLength(120)))
      }))
      .addSuccess(
        Schema.Struct({ keyId: Schema.String, apiKey: Schema.String, scopes: Schema.Array(Schema.String) }),
        { status: 201 }
      )
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("revokeKey", "/workspaces/:accountId/keys/:keyId/revoke")
      .setPath(Schema.Struct({ accountId: WorkspaceId, keyId: Schema.String }))
      .addSuccess(Schema.Struct({ revoked: Schema.Literal(true) }))
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.put("setWebhook", "/workspaces/:accountId/webhook")
      .setPath(AccountPath)
      .setPayload(Schema.Struct({ url: Schema.String }))
      .addSuccess(Schema.Struct({ url: Schema.String, secret: Schema.String }))
      .addError(NotFound)
      .addError(BlockedUrl)
  )
  .add(
    HttpApiEndpoint.post("addMember", "/workspaces/:accountId/members")
      .setPath(AccountPath)
      .setPayload(Schema.Struct({ email: Email, role: MemberRole }))
      .addSuccess(
        Schema.Struct({ member: Schema.Struct({ id: Schema.String, email: Schema.String, role: Schema.String }) }),
        { status: 201 }
      )
      .addError(NotFound)
      .addError(Conflict)
  )
  .add(
    HttpApiEndpoint.post("createPlatformKey", "/platform-keys")
      .setPayload(Schema.Struct({ name: Schema.optional(Schema.String.pipe(Schema.maxLength(120))) }))
      .addSuccess(Schema.Struct({ keyId: Schema.String, apiKey: Schema.String }), { status: 201 })
  )
  .addError(SchemaValidation)
  .middleware(AdminAuthentication)
  .prefix("/admin")
  .annotate(OpenApi.Title, "Admin")
  .annotate(OpenApi.Description, "Operator routes (CONTRACT.md); `Authorization: Bearer $ADMIN_TOKEN`.")
{}
