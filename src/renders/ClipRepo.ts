import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"

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

/** Rendered clips as their listing and asset routes read them. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
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
    /** Kept clips still stored, newest first (`GET /v1/media/renders`). */
    keptClips: (workspaceId: string) => Effect.orDie(keptClips(workspaceId)),
    /** Any clip by id; callers check the workspace (another workspace's clip answers like a missing one). */
    clip: (id: string) => Effect.orDie(clip(id))
  }
})

export class ClipRepo extends Context.Tag("clipwright/renders/ClipRepo")<ClipRepo, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(ClipRepo, make)
}
