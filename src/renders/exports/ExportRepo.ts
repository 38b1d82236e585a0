import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { ExportStatus } from "../RenderJob.js"
import { ExportRecord, TrackedExport } from "./ExportRecord.js"

export type NewExport = Omit<typeof ExportRecord.insert.Type, "workspaceId">

const tracked = `SELECT e.*, j.progress, j.state AS render_state, c.byte_size, c.duration_ms,
  c.width, c.height, c.blob_key, c.sha256, c.stored AS clip_stored, c.expires_at AS clip_expires_at
  FROM exports e JOIN render_jobs j ON j.id = e.render_job_id LEFT JOIN clips c ON c.id = e.clip_id`

const ById = Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String })
const Id = Schema.Struct({ id: ExportRecord.fields.id })

/**
 * Direct exports. Every method names the workspace, so another workspace's export answers like a missing one;
 * `findAnyWorkspace` is the one exception, for the export entity and the signed export link.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const find = SqlSchema.findOne({
    Request: ById,
    Result: TrackedExport,
    execute: ({ id, workspaceId }) => sql`${sql.unsafe(tracked)} WHERE e.id = ${id} AND e.workspace_id = ${workspaceId}`
  })
  const findAnyWorkspace = SqlSchema.findOne({
    Request: Schema.String,
    Result: TrackedExport,
    execute: (id) => sql`${sql.unsafe(tracked)} WHERE e.id = ${id}`
  })
  const list = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: TrackedExport,
    execute: (workspaceId) =>
      sql`${sql.unsafe(tracked)} WHERE e.workspace_id = ${workspaceId} AND e.discarded_at IS NULL
          ORDER BY e.created_at DESC, e.id DESC LIMIT 1000`
  })
  const insert = SqlSchema.void({
    Request: ExportRecord.insert,
    execute: (row) => sql`INSERT INTO exports ${sql.insert(row)} ON CONFLICT (id) DO NOTHING`
  })
  const finish = SqlSchema.void({
    Request: Schema.Struct({ ...ById.fields, status: ExportStatus, error: Schema.NullOr(Schema.String) }),
    execute: ({ error, id, status, workspaceId }) =>
      sql`UPDATE exports e SET status = ${status}, error = ${error}, finished_at = coalesce(finished_at, now()),
            clip_id = (SELECT clip_id FROM render_outputs o WHERE o.render_job_id = e.render_job_id
                       AND clip_id IS NOT NULL LIMIT 1)
          WHERE id = ${id} AND workspace_id = ${workspaceId}`
  })
  const setStatus = SqlSchema.void({
    Request: Schema.Struct({ ...ById.fields, status: ExportStatus }),
    execute: ({ id, status, workspaceId }) =>
      sql`UPDATE exports SET status = ${status}
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND status IN ('queued', 'rendering')`
  })
  const keep = SqlSchema.void({
    Request: Schema.Struct({ ...ById.fields, kept: Schema.Boolean, note: Schema.NullOr(Schema.String) }),
    execute: ({ id, kept, note, workspaceId }) =>
      sql`UPDATE exports SET kept = ${kept}, kept_note = ${note} WHERE id = ${id} AND workspace_id = ${workspaceId}`
  })
  const discard = SqlSchema.findOne({
    Request: ById,
    Result: Id,
    execute: ({ id, workspaceId }) =>
      sql`UPDATE exports SET discarded_at = now(), kept = false
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND discarded_at IS NULL RETURNING id`
  })
  const markClipGone = SqlSchema.void({
    Request: ById,
    execute: ({ id, workspaceId }) =>
      sql`UPDATE clips SET stored = false, kept = false WHERE id = ${id} AND workspace_id = ${workspaceId}`
  })

  return {
    /** An export of the workspace (discarded ones too); another workspace's export is not found. */
    find: (workspaceId: WorkspaceId, id: string) => Effect.orDie(find({ workspaceId, id })),
    /**
     * By id alone: the export entity owns the export whose id is its entity id, and an export link's signature,
     * not a workspace, is the authority of `/v1/export-files/{jobId}`.
     */
    findAnyWorkspace: (id: string) => Effect.orDie(findAnyWorkspace(id)),
    /** Not discarded, newest first. */
    list: (workspaceId: WorkspaceId) => Effect.orDie(list(workspaceId)),
    insert: (workspaceId: WorkspaceId, e: NewExport) =>
      Effect.orDie(insert(ExportRecord.insert.make({ ...e, workspaceId }))),
    /** Records the end and the render's clip; the first end's time stays. */
    finish: (workspaceId: WorkspaceId, id: string, status: ExportStatus, error: string | null) =>
      Effect.orDie(finish({ workspaceId, id, status, error })),
    /** Only while it is still waiting or rendering. */
    setStatus: (workspaceId: WorkspaceId, id: string, status: ExportStatus) =>
      Effect.orDie(setStatus({ workspaceId, id, status })),
    keep: (workspaceId: WorkspaceId, id: string, kept: boolean, note: string | null) =>
      Effect.orDie(keep({ workspaceId, id, kept, note })),
    /** Answers whether this call discarded it. */
    discard: (workspaceId: WorkspaceId, id: string) =>
      discard({ workspaceId, id }).pipe(Effect.map(Option.isSome), Effect.orDie),
    markClipGone: (workspaceId: WorkspaceId, clipId: string) => Effect.orDie(markClipGone({ workspaceId, id: clipId }))
  }
})

export class ExportRepo extends Context.Tag("clipwright/renders/exports/ExportRepo")<
  ExportRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(ExportRepo, make)
}
