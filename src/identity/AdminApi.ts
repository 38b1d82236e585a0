import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { BlockedUrl, Conflict, NotFound } from "../domain/Errors.js"
import { WorkspaceId } from "../domain/Principal.js"
import { doc } from "../http/ApiDocs.js"
import { adminGroup } from "../http/ApiGroups.js"
import { MemberRole } from "./Member.js"

export const AccountPath = Schema.Struct({ accountId: WorkspaceId })
const Email = Schema.String.pipe(Schema.pattern(/^[^@\s]+@[^@\s]+$/, { message: () => "an email address" }))
  .annotations({ examples: ["dana@acme.example"] })

export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.post("createWorkspace", "/workspaces")
      .annotateContext(
        doc(
          "Create a workspace",
          "A new workspace, optionally with its owner's email. It gets a render allowance of 500 videos a month " +
            "and 1024 MB of storage until the limits route says otherwise."
        )
      )
      .setPayload(Schema.Struct({
        name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(120)),
        ownerEmail: Schema.optional(Email)
      }))
      .addSuccess(Schema.Struct({ accountId: Schema.String, accountName: Schema.String }), { status: 201 })
  )
  .add(
    HttpApiEndpoint.post("createKey", "/workspaces/:accountId/keys")
      .annotateContext(
        doc(
          "Create an API key",
          "A key of the workspace with these scopes (`[\"*\"]`: every workspace permission); `apiKey` is shown in " +
            "this answer only."
        )
      )
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
      .annotateContext(doc("Revoke an API key", "The key answers 401 from then on."))
      .setPath(Schema.Struct({ accountId: WorkspaceId, keyId: Schema.String }))
      .addSuccess(Schema.Struct({ revoked: Schema.Literal(true) }))
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.put("setWebhook", "/workspaces/:accountId/webhook")
      .annotateContext(
        doc(
          "Set the webhook address",
          "Where the workspace's signed deliveries go; answers a new signing `secret` (`whsec_` + base64 of 32 " +
            "random bytes). An address the service will not deliver to: 400 `blocked_url`."
        )
      )
      .setPath(AccountPath)
      .setPayload(Schema.Struct({ url: Schema.String }))
      .addSuccess(Schema.Struct({ url: Schema.String, secret: Schema.String }))
      .addError(NotFound)
      .addError(BlockedUrl)
  )
  .add(
    HttpApiEndpoint.post("addMember", "/workspaces/:accountId/members")
      .annotateContext(
        doc("Add a member", "A member by email with the role `owner`, `operations` or `member`; already a member: 409.")
      )
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
      .annotateContext(
        doc(
          "Create a platform key",
          "A credential with the `ingest:shipped` scope, for `/v1/broadcast`; `apiKey` is shown in this answer " +
            "only."
        )
      )
      .setPayload(Schema.Struct({ name: Schema.optional(Schema.String.pipe(Schema.maxLength(120))) }))
      .addSuccess(Schema.Struct({ keyId: Schema.String, apiKey: Schema.String }), { status: 201 })
  )
  .add(
    HttpApiEndpoint.get("listPlatformKeys", "/platform-keys")
      .annotateContext(
        doc(
          "List platform keys",
          "Every platform key, oldest first, revoked ones included (`revokedAt` set); never the key itself."
        )
      )
      .addSuccess(Schema.Struct({
        keys: Schema.Array(Schema.Struct({
          keyId: Schema.String,
          name: Schema.NullOr(Schema.String),
          createdAt: Schema.Date,
          revokedAt: Schema.NullOr(Schema.Date)
        }))
      }))
  )
  .add(
    HttpApiEndpoint.post("revokePlatformKey", "/platform-keys/:keyId/revoke")
      .annotateContext(
        doc(
          "Revoke a platform key",
          "The key answers 401 from then on, on every node; revoking it again answers the same. An unknown key is 404."
        )
      )
      .setPath(Schema.Struct({ keyId: Schema.String }))
      .addSuccess(Schema.Struct({ revoked: Schema.Literal(true) }))
      .addError(NotFound)
  )
  .pipe(adminGroup)
{}
