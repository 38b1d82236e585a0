import { SqlClient, SqlError, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"

/** What the storage block is computed from: the allowance, the split and the bytes actually held. */
export const StorageFactsRow = Schema.Struct({
  storageMb: Schema.Number,
  mediaSharePercent: Schema.Number,
  mediaBytes: Schema.Number,
  renderBytes: Schema.Number
})
export type StorageFactsRow = typeof StorageFactsRow.Type

/** The allowance and its split: all that deciding room for clips needs. */
export const AllowanceRow = Schema.Struct({ storageMb: Schema.Number, mediaSharePercent: Schema.Number })

/** A kept clip as eviction sees it, oldest first. */
export const HeldClipRow = Schema.Struct({
  id: Schema.String,
  byteSize: Schema.Number,
  blobKey: Schema.String
})
export type HeldClipRow = typeof HeldClipRow.Type

/** A clip with what its listing and asset metadata show (template of its render job; no channel yet). */
export const ClipRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  renderJobId: Schema.String,
  ratio: Schema.String,
  locale: Schema.String,
  width: Schema.Number,
  height: Schema.Number,
  durationMs: Schema.Number,
  byteSize: Schema.Number,
  sha256: Schema.String,
  blobKey: Schema.String,
  stored: Schema.Boolean,
  kept: Schema.Boolean,
  createdAt: Schema.DateFromSelf,
  expiresAt: Schema.NullOr(Schema.DateFromSelf),
  templateId: Schema.String,
  templateName: Schema.String,
  channelName: Schema.NullOr(Schema.String),
  needed: Schema.Boolean,
  neededBecause: Schema.NullOr(Schema.String)
})
export type ClipRow = typeof ClipRow.Type

// `needed`: a post still to publish relies on the clip. Only direct exports render today and nothing scheduled
// holds an export's clip, so no clip is needed yet; posts will join here.
const clipSelect = `SELECT c.id, c.workspace_id, c.render_job_id, c.ratio, c.locale, c.width, c.height, c.duration_ms,
  c.byte_size::float8 AS byte_size, c.sha256, c.blob_key, c.stored, c.kept, c.created_at, c.expires_at,
  j.template_id, j.template_name, NULL::text AS channel_name, false AS needed, NULL::text AS needed_because
  FROM clips c JOIN render_jobs j ON j.id = c.render_job_id`

/** Storage accounting of a workspace: media files and kept clips, the split, and removing clips for room. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const facts = SqlSchema.findOne({
    Request: Schema.String,
    Result: StorageFactsRow,
    execute: (workspaceId) =>
      sql`SELECT w.storage_mb, w.media_share_percent,
            (SELECT coalesce(sum(m.byte_size), 0) FROM media_files m
              WHERE m.workspace_id = w.id AND m.deleted_at IS NULL)::float8 AS media_bytes,
            (SELECT coalesce(sum(c.byte_size), 0) FROM clips c
              WHERE c.workspace_id = w.id AND c.kept AND c.stored)::float8 AS render_bytes
          FROM workspaces w WHERE w.id = ${workspaceId}`
  })
  const allowance = SqlSchema.findOne({
    Request: Schema.String,
    Result: AllowanceRow,
    execute: (workspaceId) => sql`SELECT storage_mb, media_share_percent FROM workspaces WHERE id = ${workspaceId}`
  })
  const held = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: Schema.String, except: Schema.String }),
    Result: HeldClipRow,
    execute: ({ except, workspaceId }) =>
      sql`SELECT id, byte_size::float8 AS byte_size, blob_key FROM clips
          WHERE workspace_id = ${workspaceId} AND kept AND stored AND id <> ${except}
          ORDER BY created_at, id`
  })
  const keptClips = SqlSchema.findAll({
    Request: Schema.String,
    Result: ClipRow,
    execute: (workspaceId) =>
      sql`${sql.unsafe(clipSelect)} WHERE c.workspace_id = ${workspaceId} AND c.kept AND c.stored
          ORDER BY c.created_at DESC, c.id DESC`
  })
  const clip = SqlSchema.findOne({
    Request: Schema.String,
    Result: ClipRow,
    execute: (id) => sql`${sql.unsafe(clipSelect)} WHERE c.id = ${id}`
  })

  return {
    facts: (workspaceId: string) => Effect.orDie(facts(workspaceId)),
    allowance: (workspaceId: string) => Effect.orDie(allowance(workspaceId)),
    /** Runs `effect` in one transaction holding the workspace row, so storage decisions of a workspace queue up. */
    locked: <A, E, R>(workspaceId: string, effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(
        Effect.zipRight(Effect.orDie(sql`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`), effect)
      ).pipe(Effect.catchIf((e): e is SqlError.SqlError => e instanceof SqlError.SqlError, Effect.die)),
    /** Kept clips still stored, oldest first, leaving out `except` (the clip being kept). */
    held: (workspaceId: string, except = "") => Effect.orDie(held({ workspaceId, except })),
    /** Marks clips removed: the record stays, `stored` and `kept` go false. */
    markRemoved: (ids: ReadonlyArray<string>) =>
      ids.length === 0
        ? Effect.void
        : Effect.orDie(sql`UPDATE clips SET stored = false, kept = false WHERE ${sql.in("id", ids)}`),
    keep: (clipId: string) => Effect.orDie(sql`UPDATE clips SET kept = true, expires_at = NULL WHERE id = ${clipId}`),
    setMediaShare: (workspaceId: string, percent: number) =>
      Effect.orDie(sql`UPDATE workspaces SET media_share_percent = ${percent} WHERE id = ${workspaceId}`),
    /** Kept clips still stored, newest first (`GET /v1/media/renders`). */
    keptClips: (workspaceId: string) => Effect.orDie(keptClips(workspaceId)),
    /** Any clip by id; callers check the workspace (another workspace's clip answers like a missing one). */
    clip: (id: string) => Effect.orDie(clip(id))
  }
})

export class StorageRepo extends Context.Tag("clipwright/sql/StorageRepo")<
  StorageRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(StorageRepo, make)
}
