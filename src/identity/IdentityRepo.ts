import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceRow } from "./Workspace.js"

const KeyRow = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("apikey", "platform"),
  workspaceId: Schema.NullOr(Schema.String),
  workspaceName: Schema.NullOr(Schema.String),
  scopes: Schema.Array(Schema.String),
  revokedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type KeyRow = typeof KeyRow.Type


export interface NewKey {
  readonly id: string
  readonly workspaceId: string | null
  readonly kind: "apikey" | "platform"
  readonly name: string | null
  readonly keyHash: string
  readonly scopes: ReadonlyArray<string>
}

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const findKeyByHash = SqlSchema.findOne({
    Request: Schema.String,
    Result: KeyRow,
    execute: (hash) =>
      sql`SELECT k.id, k.kind, k.workspace_id, w.name AS workspace_name, k.scopes, k.revoked_at
          FROM api_keys k LEFT JOIN workspaces w ON w.id = k.workspace_id WHERE k.key_hash = ${hash}`
  })

  const findWorkspace = SqlSchema.findOne({
    Request: Schema.String,
    Result: WorkspaceRow,
    execute: (id) =>
      sql`SELECT id, name, owner_email, render_allowance, storage_mb, seats, limits_overridden, media_share_percent,
            webhook_url, created_at
          FROM workspaces WHERE id = ${id}`
  })

  const countMembers = SqlSchema.single({
    Request: Schema.String,
    Result: Schema.Struct({ n: Schema.Number }),
    execute: (workspaceId) => sql`SELECT count(*)::int AS n FROM members WHERE workspace_id = ${workspaceId}`
  })

  return {
    findKeyByHash: (hash: string) => Effect.orDie(findKeyByHash(hash)),
    findWorkspace: (id: string) => Effect.orDie(findWorkspace(id)),
    insertWorkspace: (w: { id: string; name: string; ownerEmail: string | null }) =>
      Effect.orDie(sql`INSERT INTO workspaces ${sql.insert(w)}`),
    insertKey: (k: NewKey) =>
      Effect.orDie(sql`INSERT INTO api_keys ${sql.insert({ ...k, scopes: JSON.stringify(k.scopes) })}`),
    revokeKey: (workspaceId: string, keyId: string) =>
      sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
          WHERE id = ${keyId} AND workspace_id = ${workspaceId} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    setWebhook: (workspaceId: string, url: string, secret: string) =>
      Effect.orDie(sql`UPDATE workspaces SET webhook_url = ${url}, webhook_secret = ${secret} WHERE id = ${workspaceId}`),
    insertMember: (m: { id: string; workspaceId: string; email: string; role: string }) =>
      sql`INSERT INTO members ${sql.insert(m)} ON CONFLICT (workspace_id, email) DO NOTHING RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    setLimits: (
      workspaceId: string,
      limits: { renderAllowance?: number | undefined; storageMb?: number | undefined; seats?: number | undefined }
    ) =>
      Effect.orDie(sql`UPDATE workspaces SET
          render_allowance = coalesce(${limits.renderAllowance ?? null}, render_allowance),
          storage_mb = coalesce(${limits.storageMb ?? null}, storage_mb),
          seats = coalesce(${limits.seats ?? null}, seats),
          limits_overridden = true
        WHERE id = ${workspaceId}`),
    countMembers: (workspaceId: string) => Effect.orDie(Effect.map(countMembers(workspaceId), (r) => r.n))
  }
})

export class IdentityRepo extends Context.Tag("clipwright/sql/IdentityRepo")<
  IdentityRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(IdentityRepo, make)
}

export const isLive = (key: KeyRow): boolean => key.revokedAt === null
