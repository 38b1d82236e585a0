import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { renderDetails } from "../../sql/SourceNames.js"
import { RenderJobState } from "../RenderJob.js"
import { ListedJob, RenderJobRecord } from "../RenderJobRecord.js"
import { RenderOutputRecord } from "../RenderOutputRecord.js"

/** Tenant-scoped reads of render jobs for the paged log (`GET /v1/render-jobs`); never wakes an entity. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const page = SqlSchema.findAll({
    Request: Schema.Struct({
      workspaceId: WorkspaceId,
      state: Schema.optional(RenderJobState),
      limit: Schema.Number,
      offset: Schema.Number
    }),
    Result: ListedJob,
    execute: (r) => {
      const inState = r.state === undefined ? [] : [sql`j.state = ${r.state}`]
      const where = [sql`j.workspace_id = ${r.workspaceId}`, ...inState]
      return sql`SELECT j.*, ${renderDetails(sql, "j")} AS printed_details,
            (SELECT count(*) FROM clips c WHERE c.render_job_id = j.id AND c.stored)::int AS clips_stored,
            (SELECT c.id FROM clips c WHERE c.render_job_id = j.id AND c.stored
              ORDER BY c.created_at, c.id LIMIT 1) AS clip_id
          FROM render_jobs j
          WHERE ${sql.and(where)}
          ORDER BY j.submitted_at DESC, j.id DESC LIMIT ${r.limit} OFFSET ${r.offset}`
    }
  })
  const outputs = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, ids: Schema.Array(Schema.String) }),
    Result: RenderOutputRecord,
    execute: ({ ids, workspaceId }) =>
      sql`SELECT o.* FROM render_outputs o JOIN render_jobs j ON j.id = o.render_job_id
          WHERE j.workspace_id = ${workspaceId} AND ${sql.in("o.render_job_id", ids)}
          ORDER BY o.render_job_id, o.ratio, o.locale`
  })
  const facets = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Schema.Struct({ state: RenderJobRecord.fields.state, n: Schema.Number }),
    execute: (workspaceId) =>
      sql`SELECT state, count(*)::int AS n FROM render_jobs WHERE workspace_id = ${workspaceId} GROUP BY state`
  })
  const one = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: RenderJobRecord,
    execute: ({ id, workspaceId }) => sql`SELECT * FROM render_jobs WHERE id = ${id} AND workspace_id = ${workspaceId}`
  })
  return {
    /** Newest first; only jobs in `state` when it is given. */
    page: (workspaceId: WorkspaceId, state: RenderJobState | undefined, limit: number, offset: number) =>
      Effect.orDie(page({ workspaceId, state, limit, offset })),
    outputsOf: (workspaceId: WorkspaceId, ids: ReadonlyArray<string>) =>
      ids.length === 0 ? Effect.succeed([]) : Effect.orDie(outputs({ workspaceId, ids })),
    /** Jobs per state across the whole workspace. */
    stateCounts: (workspaceId: WorkspaceId) => Effect.orDie(facets(workspaceId)),
    /** One job of the workspace; another workspace's id is not found. */
    find: (workspaceId: WorkspaceId, id: string) => Effect.orDie(one({ workspaceId, id }))
  }
})

export class RenderJobsQuery extends Context.Tag("clipwright/renders/runner/RenderJobsQuery")<
  RenderJobsQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(RenderJobsQuery, make)
}
