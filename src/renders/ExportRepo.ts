import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"

export const ExportRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  renderJobId: Schema.String,
  templateId: Schema.String,
  templateName: Schema.String,
  variant: Schema.String,
  version: Schema.String,
  brandId: Schema.NullOr(Schema.String),
  brandName: Schema.NullOr(Schema.String),
  ratio: Schema.String,
  locale: Schema.String,
  data: Schema.Unknown,
  title: Schema.NullOr(Schema.String),
  status: Schema.String,
  error: Schema.NullOr(Schema.String),
  kept: Schema.Boolean,
  keptNote: Schema.NullOr(Schema.String),
  clipId: Schema.NullOr(Schema.String),
  createdBy: Schema.String,
  createdAt: Schema.DateFromSelf,
  finishedAt: Schema.NullOr(Schema.DateFromSelf),
  discardedAt: Schema.NullOr(Schema.DateFromSelf),
  progress: Schema.Number,
  renderState: Schema.String,
  byteSize: Schema.NullOr(Schema.NumberFromString),
  durationMs: Schema.NullOr(Schema.Number),
  width: Schema.NullOr(Schema.Number),
  height: Schema.NullOr(Schema.Number),
  blobKey: Schema.NullOr(Schema.String),
  clipStored: Schema.NullOr(Schema.Boolean),
  clipExpiresAt: Schema.NullOr(Schema.DateFromSelf)
})
export type ExportRow = typeof ExportRow.Type

export interface NewExport {
  readonly id: string
  readonly workspaceId: string
  readonly renderJobId: string
  readonly templateId: string
  readonly templateName: string
  readonly variant: string
  readonly version: string
  readonly brandId: string | null
  readonly brandName: string | null
  readonly ratio: string
  readonly locale: string
  readonly data: unknown
  readonly title: string | null
  readonly createdBy: string
}

const select = `SELECT e.*, j.progress, j.state AS render_state, c.byte_size::text AS byte_size, c.duration_ms,
  c.width, c.height, c.blob_key, c.stored AS clip_stored, c.expires_at AS clip_expires_at
  FROM exports e JOIN render_jobs j ON j.id = e.render_job_id LEFT JOIN clips c ON c.id = e.clip_id`

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const one = SqlSchema.findOne({
    Request: Schema.String,
    Result: ExportRow,
    execute: (id) => sql`${sql.unsafe(select)} WHERE e.id = ${id}`
  })
  const listFor = SqlSchema.findAll({
    Request: Schema.String,
    Result: ExportRow,
    execute: (workspaceId) =>
      sql`${sql.unsafe(select)} WHERE e.workspace_id = ${workspaceId} AND e.discarded_at IS NULL
          ORDER BY e.created_at DESC, e.id DESC LIMIT 1000`
  })
  return {
    /** Any export by id; callers check the workspace (another workspace's export answers like a missing one). */
    find: (id: string) => Effect.orDie(one(id)),
    list: (workspaceId: string) => Effect.orDie(listFor(workspaceId)),
    insert: (e: NewExport) =>
      Effect.orDie(sql`INSERT INTO exports ${sql.insert({ ...e, data: JSON.stringify(e.data) })} ON CONFLICT (id) DO NOTHING`),
    finish: (id: string, status: string, error: string | null) =>
      Effect.orDie(sql`UPDATE exports e SET status = ${status}, error = ${error}, finished_at = coalesce(finished_at, now()),
          clip_id = (SELECT clip_id FROM render_outputs o WHERE o.render_job_id = e.render_job_id AND clip_id IS NOT NULL
                     LIMIT 1)
        WHERE id = ${id}`),
    setStatus: (id: string, status: string) =>
      Effect.orDie(sql`UPDATE exports SET status = ${status} WHERE id = ${id} AND status IN ('queued', 'rendering')`),
    keep: (id: string, kept: boolean, note: string | null) =>
      Effect.orDie(sql`UPDATE exports SET kept = ${kept}, kept_note = ${note} WHERE id = ${id}`),
    discard: (id: string) =>
      sql`UPDATE exports SET discarded_at = now(), kept = false WHERE id = ${id} AND discarded_at IS NULL RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    markClipGone: (clipId: string) => Effect.orDie(sql`UPDATE clips SET stored = false, kept = false WHERE id = ${clipId}`)
  }
})

export class ExportRepo extends Context.Tag("clipwright/sql/ExportRepo")<ExportRepo, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(ExportRepo, make)
}
