import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { ListedClip } from "../ClipRecord.js"

// What a post still to publish relies on: a job on the clip's render that is SCHEDULED or PUBLISHING (its post is
// to be handed over). A shared render has several jobs; the listing names one, a needing one first.
const neededStatuses = `('SCHEDULED', 'PUBLISHING')`

const listed = `SELECT c.*, r.template_id, r.template_name, u.channel_name,
  coalesce(u.needed, false) AS needed,
  CASE WHEN u.needed THEN 'post ' || u.post_id || ' on ' || u.channel_name || ' is '
    || CASE u.status WHEN 'SCHEDULED' THEN 'scheduled' ELSE 'being published' END END AS needed_because
  FROM clips c JOIN render_jobs r ON r.id = c.render_job_id
  LEFT JOIN LATERAL (
    SELECT coalesce(p.id, j.id) AS post_id, ch.name AS channel_name, j.status,
      j.status IN ${neededStatuses} AS needed
    FROM jobs j JOIN channels ch ON ch.id = j.channel_id AND ch.workspace_id = j.workspace_id
    LEFT JOIN posts p ON p.job_id = j.id
    WHERE j.render_job_id = c.render_job_id AND j.workspace_id = c.workspace_id
    ORDER BY (j.status IN ${neededStatuses}) DESC, j.created_at, j.id
    LIMIT 1
  ) u ON true`

const RenderJobClips = Schema.Struct({ workspaceId: WorkspaceId, renderJobId: Schema.String })

/** A finished clip not yet kept, as keeping it needs it. */
export const UnkeptClip = Schema.Struct({ id: Schema.String, byteSize: Schema.NumberFromString })
export type UnkeptClip = typeof UnkeptClip.Type

/** Rendered clips as their listing and asset routes read them, and what storage must spare. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const keptClips = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: ListedClip,
    execute: (workspaceId) =>
      sql`${sql.unsafe(listed)} WHERE c.workspace_id = ${workspaceId} AND c.kept AND c.stored
          ORDER BY c.created_at DESC, c.id DESC`
  })
  const clip = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: ListedClip,
    execute: ({ id, workspaceId }) => sql`${sql.unsafe(listed)} WHERE c.id = ${id} AND c.workspace_id = ${workspaceId}`
  })
  const clipAnyWorkspace = SqlSchema.findOne({
    Request: Schema.String,
    Result: ListedClip,
    execute: (id) => sql`${sql.unsafe(listed)} WHERE c.id = ${id}`
  })
  const neededIds = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (workspaceId) =>
      sql`SELECT c.id FROM clips c
          WHERE c.workspace_id = ${workspaceId} AND c.kept AND c.stored
            AND EXISTS (SELECT 1 FROM jobs j WHERE j.render_job_id = c.render_job_id
              AND j.workspace_id = c.workspace_id AND j.status IN ${sql.unsafe(neededStatuses)})`
  })
  const unkeptOf = SqlSchema.findAll({
    Request: RenderJobClips,
    Result: UnkeptClip,
    execute: ({ renderJobId, workspaceId }) =>
      sql`SELECT id, byte_size FROM clips
          WHERE workspace_id = ${workspaceId} AND render_job_id = ${renderJobId} AND stored AND NOT kept
          ORDER BY created_at, id`
  })

  return {
    /** Kept clips still stored, newest first (`GET /v1/media/renders`). */
    keptClips: (workspaceId: WorkspaceId) => Effect.orDie(keptClips(workspaceId)),
    /** A clip of the workspace; another workspace's clip answers like a missing one. */
    clip: (workspaceId: WorkspaceId, id: string) => Effect.orDie(clip({ workspaceId, id })),
    /** By id alone, for the signed download: its signature, not a workspace, is the authority. */
    clipAnyWorkspace: (id: string) => Effect.orDie(clipAnyWorkspace(id)),
    /** Kept clips a post still to publish relies on: making room must spare them. */
    neededIds: (workspaceId: WorkspaceId) =>
      Effect.map(Effect.orDie(neededIds(workspaceId)), (rows) => new Set(rows.map((row) => row.id))),
    /** A render's clips still stored but not kept (none once kept, or removed): what keeping it has left to do. */
    unkeptOf: (workspaceId: WorkspaceId, renderJobId: string) => Effect.orDie(unkeptOf({ workspaceId, renderJobId }))
  }
})

export class ClipRepo
  extends Context.Tag("clipwright/renders/clips/ClipRepo")<ClipRepo, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(ClipRepo, make)
}
