import { SqlClient, SqlError, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"

// These are projections over other areas' tables (`workspaces`, `clips`) and sums of `media_files`, not records this
// area stores, so they are plain structs rather than a Model.Class.

/** What the storage block is computed from: the allowance, the split and the bytes actually held. */
export const StorageFactsRow = Schema.Struct({
  storageMb: Schema.Number,
  mediaSharePercent: Schema.Number,
  mediaBytes: Schema.Number,
  renderBytes: Schema.Number
})
export type StorageFactsRow = typeof StorageFactsRow.Type

/** The allowance and its split: all that deciding room for clips needs. */
export const AllowanceRow = StorageFactsRow.pick("storageMb", "mediaSharePercent")

/** A kept clip as eviction sees it, oldest first. */
export const HeldClipRow = Schema.Struct({
  id: Schema.String,
  byteSize: Schema.Number,
  blobKey: Schema.String
})
export type HeldClipRow = typeof HeldClipRow.Type

const Clips = Schema.Struct({ workspaceId: WorkspaceId, ids: Schema.Array(Schema.String) })

/** Storage accounting of a workspace: media files and kept clips, the split, and removing clips for room. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const facts = SqlSchema.findOne({
    Request: WorkspaceId,
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
    Request: WorkspaceId,
    Result: AllowanceRow,
    execute: (workspaceId) => sql`SELECT storage_mb, media_share_percent FROM workspaces WHERE id = ${workspaceId}`
  })
  const lock = SqlSchema.void({
    Request: WorkspaceId,
    execute: (workspaceId) => sql`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`
  })
  const held = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, except: Schema.String }),
    Result: HeldClipRow,
    execute: ({ except, workspaceId }) =>
      sql`SELECT id, byte_size::float8 AS byte_size, blob_key FROM clips
          WHERE workspace_id = ${workspaceId} AND kept AND stored AND id <> ${except}
          ORDER BY created_at, id`
  })
  const markRemoved = SqlSchema.void({
    Request: Clips,
    execute: ({ ids, workspaceId }) =>
      sql`UPDATE clips SET stored = false, kept = false WHERE workspace_id = ${workspaceId} AND ${sql.in("id", ids)}`
  })
  const keep = SqlSchema.void({
    Request: Schema.Struct({ workspaceId: WorkspaceId, clipId: Schema.String }),
    execute: ({ clipId, workspaceId }) =>
      sql`UPDATE clips SET kept = true, expires_at = NULL WHERE id = ${clipId} AND workspace_id = ${workspaceId}`
  })
  const setMediaShare = SqlSchema.void({
    Request: Schema.Struct({ workspaceId: WorkspaceId, percent: Schema.Int }),
    execute: ({ percent, workspaceId }) =>
      sql`UPDATE workspaces SET media_share_percent = ${percent} WHERE id = ${workspaceId}`
  })

  return {
    facts: (workspaceId: WorkspaceId) => Effect.orDie(facts(workspaceId)),
    allowance: (workspaceId: WorkspaceId) => Effect.orDie(allowance(workspaceId)),
    /** Runs `effect` in one transaction holding the workspace row, so storage decisions of a workspace queue up. */
    locked: <A, E, R>(workspaceId: WorkspaceId, effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(Effect.zipRight(Effect.orDie(lock(workspaceId)), effect)).pipe(
        Effect.catchIf((e): e is SqlError.SqlError => e instanceof SqlError.SqlError, Effect.die)
      ),
    /** Kept clips still stored, oldest first, leaving out `except` (the clip being kept). */
    held: (workspaceId: WorkspaceId, except = "") => Effect.orDie(held({ workspaceId, except })),
    /** Marks clips of the workspace removed: the record stays, `stored` and `kept` go false. */
    markRemoved: (workspaceId: WorkspaceId, ids: ReadonlyArray<string>) =>
      ids.length === 0 ? Effect.void : Effect.orDie(markRemoved({ workspaceId, ids })),
    keep: (workspaceId: WorkspaceId, clipId: string) => Effect.orDie(keep({ workspaceId, clipId })),
    setMediaShare: (workspaceId: WorkspaceId, percent: number) => Effect.orDie(setMediaShare({ workspaceId, percent }))
  }
})

export class StorageRepo extends Context.Tag("clipwright/media/StorageRepo")<
  StorageRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(StorageRepo, make)
}
