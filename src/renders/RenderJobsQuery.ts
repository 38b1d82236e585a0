import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { RenderJobRow, RenderOutputRow } from "./RenderRepo.js"

/** A job row with what the listing adds: its stored clips and the first of them. */
export const ListedJobRow = Schema.Struct({
  ...RenderJobRow.fields,
  clipsStored: Schema.Number,
  clipId: Schema.NullOr(Schema.String)
})
export type ListedJobRow = typeof ListedJobRow.Type

export interface JobFilter {
  readonly workspaceId: string
  readonly state?: string | undefined
}

/** Tenant-scoped reads of render jobs for the paged log (`GET /v1/render-jobs`); never wakes an entity. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const where = (filter: JobFilter) =>
    sql.and([
      sql`j.workspace_id = ${filter.workspaceId}`,
      ...(filter.state === undefined ? [] : [sql`j.state = ${filter.state}`])
    ])
  const page = SqlSchema.findAll({
    Request: Schema.Struct({
      workspaceId: Schema.String,
      state: Schema.optional(Schema.String),
      limit: Schema.Number,
      offset: Schema.Number
    }),
    Result: ListedJobRow,
    execute: (r) =>
      sql`SELECT j.*,
            (SELECT count(*) FROM clips c WHERE c.render_job_id = j.id AND c.stored)::int AS clips_stored,
            (SELECT c.id FROM clips c WHERE c.render_job_id = j.id AND c.stored
              ORDER BY c.created_at, c.id LIMIT 1) AS clip_id
          FROM render_jobs j WHERE ${where(r)}
          ORDER BY j.submitted_at DESC, j.id DESC LIMIT ${r.limit} OFFSET ${r.offset}`
  })
  const outputs = SqlSchema.findAll({
    Request: Schema.Array(Schema.String),
    Result: RenderOutputRow,
    execute: (ids) =>
      sql`SELECT * FROM render_outputs WHERE ${sql.in("render_job_id", ids)} ORDER BY render_job_id, ratio, locale`
  })
  const facets = SqlSchema.findAll({
    Request: Schema.String,
    Result: Schema.Struct({ state: Schema.String, n: Schema.Number }),
    execute: (workspaceId) =>
      sql`SELECT state, count(*)::int AS n FROM render_jobs WHERE workspace_id = ${workspaceId} GROUP BY state`
  })
  const one = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: Schema.String, id: Schema.String }),
    Result: RenderJobRow,
    execute: ({ id, workspaceId }) => sql`SELECT * FROM render_jobs WHERE id = ${id} AND workspace_id = ${workspaceId}`
  })
  return {
    /** Newest first. */
    page: (filter: JobFilter, limit: number, offset: number) =>
      Effect.orDie(page({ workspaceId: filter.workspaceId, state: filter.state, limit, offset })),
    outputsOf: (ids: ReadonlyArray<string>) => ids.length === 0 ? Effect.succeed([]) : Effect.orDie(outputs(ids)),
    /** Jobs per state across the whole workspace. */
    stateCounts: (workspaceId: string) => Effect.orDie(facets(workspaceId)),
    /** One job of the workspace; another workspace's id is not found. */
    find: (workspaceId: string, id: string) => Effect.orDie(one({ workspaceId, id }))
  }
})

export class RenderJobsQuery extends Context.Tag("clipwright/sql/RenderJobsQuery")<
  RenderJobsQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(RenderJobsQuery, make)
}
