import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { ListedClip } from "./ClipRecord.js"

// `needed`: a post still to publish relies on the clip. Only direct exports render today and nothing scheduled
// holds an export's clip, so no clip is needed yet; posts will join here.
const listed = `SELECT c.*, j.template_id, j.template_name,
  NULL::text AS channel_name, false AS needed, NULL::text AS needed_because
  FROM clips c JOIN render_jobs j ON j.id = c.render_job_id`

/** Rendered clips as their listing and asset routes read them. */
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

  return {
    /** Kept clips still stored, newest first (`GET /v1/media/renders`). */
    keptClips: (workspaceId: WorkspaceId) => Effect.orDie(keptClips(workspaceId)),
    /** A clip of the workspace; another workspace's clip answers like a missing one. */
    clip: (workspaceId: WorkspaceId, id: string) => Effect.orDie(clip({ workspaceId, id })),
    /** By id alone, for the signed download: its signature, not a workspace, is the authority. */
    clipAnyWorkspace: (id: string) => Effect.orDie(clipAnyWorkspace(id))
  }
})

export class ClipRepo extends Context.Tag("clipwright/sql/ClipRepo")<ClipRepo, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(ClipRepo, make)
}
