import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { ApiKey, KeyWithWorkspace } from "./ApiKey.js"
import { Member } from "./Member.js"
import { LimitsChange, Workspace } from "./Workspace.js"

const workspaceColumns =
  "id, name, owner_email, render_allowance, storage_mb, seats, limits_overridden, extra_ceiling, " +
  "media_share_percent, webhook_url, created_at"

/**
 * Workspaces, their keys and members. Every method is by the workspace's id, except the key lookup by its hash and
 * the platform keys (which belong to no workspace).
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // By hash, across workspaces: the key is what tells which workspace the caller is in.
  const findKeyByHash = SqlSchema.findOne({
    Request: Schema.String,
    Result: KeyWithWorkspace,
    execute: (hash) =>
      sql`SELECT k.id, k.kind, k.workspace_id, w.name AS workspace_name, k.scopes, k.revoked_at
          FROM api_keys k LEFT JOIN workspaces w ON w.id = k.workspace_id WHERE k.key_hash = ${hash}`
  })
  const findWorkspace = SqlSchema.findOne({
    Request: WorkspaceId,
    Result: Workspace,
    execute: (id) => sql`SELECT ${sql.unsafe(workspaceColumns)} FROM workspaces WHERE id = ${id}`
  })
  const insertWorkspace = SqlSchema.void({
    Request: Workspace.insert,
    execute: (workspace) => sql`INSERT INTO workspaces ${sql.insert(workspace)}`
  })
  const insertKey = SqlSchema.void({
    Request: ApiKey.insert,
    execute: (key) => sql`INSERT INTO api_keys ${sql.insert(key)}`
  })
  const revokeKey = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, keyId: Schema.String }),
    Result: Schema.Struct({ id: Schema.String }),
    execute: ({ keyId, workspaceId }) =>
      sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
          WHERE id = ${keyId} AND workspace_id = ${workspaceId} RETURNING id`
  })
  const listPlatformKeys = SqlSchema.findAll({
    Request: Schema.Void,
    Result: ApiKey.select.pick("id", "name", "createdAt", "revokedAt"),
    execute: () =>
      sql`SELECT id, name, created_at, revoked_at FROM api_keys WHERE kind = 'platform' ORDER BY created_at, id`
  })
  const revokePlatformKey = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (keyId) =>
      sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
          WHERE id = ${keyId} AND kind = 'platform' RETURNING id`
  })
  const setWebhook = SqlSchema.void({
    Request: Schema.Struct({ workspaceId: WorkspaceId, url: Schema.String, secret: Schema.String }),
    execute: ({ secret, url, workspaceId }) =>
      sql`UPDATE workspaces SET webhook_url = ${url}, webhook_secret = ${secret} WHERE id = ${workspaceId}`
  })
  const insertMember = SqlSchema.findOne({
    Request: Member.insert,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (member) =>
      sql`INSERT INTO members ${sql.insert(member)} ON CONFLICT (workspace_id, email) DO NOTHING RETURNING id`
  })
  const setLimits = SqlSchema.void({
    Request: Schema.Struct({ workspaceId: WorkspaceId, limits: LimitsChange }),
    execute: ({ limits, workspaceId }) =>
      sql`UPDATE workspaces SET
          render_allowance = coalesce(${limits.renderAllowance ?? null}, render_allowance),
          storage_mb = coalesce(${limits.storageMb ?? null}, storage_mb),
          seats = coalesce(${limits.seats ?? null}, seats),
          extra_ceiling = coalesce(${limits.extraCeiling ?? null}, extra_ceiling),
          limits_overridden = true
        WHERE id = ${workspaceId}`
  })
  const listMembers = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Member.select.pick("email", "role"),
    execute: (workspaceId) =>
      sql`SELECT email, role FROM members WHERE workspace_id = ${workspaceId}
          ORDER BY CASE role WHEN 'owner' THEN 0 WHEN 'operations' THEN 1 ELSE 2 END, lower(email)`
  })
  const countMembers = SqlSchema.single({
    Request: WorkspaceId,
    Result: Schema.Struct({ n: Schema.Number }),
    execute: (workspaceId) => sql`SELECT count(*)::int AS n FROM members WHERE workspace_id = ${workspaceId}`
  })

  return {
    findKeyByHash: (hash: string) => Effect.orDie(findKeyByHash(hash)),
    findWorkspace: (workspaceId: WorkspaceId) => Effect.orDie(findWorkspace(workspaceId)),
    insertWorkspace: (workspace: typeof Workspace.insert.Type) => Effect.orDie(insertWorkspace(workspace)),
    insertKey: (key: typeof ApiKey.insert.Type) => Effect.orDie(insertKey(key)),
    /** False when the workspace has no such key. */
    revokeKey: (workspaceId: WorkspaceId, keyId: string) =>
      Effect.orDie(Effect.map(revokeKey({ workspaceId, keyId }), (row) => row._tag === "Some")),
    /** Platform keys belong to no workspace: the operator's, listed whole. */
    listPlatformKeys: Effect.orDie(listPlatformKeys(undefined)),
    /** False when there is no such platform key. */
    revokePlatformKey: (keyId: string) =>
      Effect.orDie(Effect.map(revokePlatformKey(keyId), (row) => row._tag === "Some")),
    setWebhook: (workspaceId: WorkspaceId, url: string, secret: string) =>
      Effect.orDie(setWebhook({ workspaceId, url, secret })),
    /** False when the email is already a member. */
    insertMember: (member: typeof Member.insert.Type) =>
      Effect.orDie(Effect.map(insertMember(member), (row) => row._tag === "Some")),
    setLimits: (workspaceId: WorkspaceId, limits: LimitsChange) => Effect.orDie(setLimits({ workspaceId, limits })),
    countMembers: (workspaceId: WorkspaceId) => Effect.orDie(Effect.map(countMembers(workspaceId), (r) => r.n)),
    /** The workspace's people: owners first, then Operations, then members, each by address. */
    listMembers: (workspaceId: WorkspaceId) => Effect.orDie(listMembers(workspaceId))
  }
})

export class IdentityRepo extends Context.Tag("clipwright/identity/IdentityRepo")<
  IdentityRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(IdentityRepo, make)
}
