import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { ApprovalState } from "../channels/jobs/ApprovalRecord.js"
import { JobStatus } from "../channels/jobs/JobStatus.js"

export const ApprovalRow = Schema.Struct({
  id: Schema.String,
  jobId: Schema.String,
  channelId: Schema.String,
  channelName: Schema.String,
  state: ApprovalState,
  note: Schema.NullOr(Schema.String),
  requestedAt: Schema.DateFromSelf,
  decidedAt: Schema.NullOr(Schema.DateFromSelf),
  templateId: Schema.String,
  templateVersion: Schema.NullOr(Schema.String),
  postId: Schema.NullOr(Schema.String),
  platform: Schema.NullOr(Schema.String),
  locale: Schema.NullOr(Schema.String),
  ratio: Schema.NullOr(Schema.String),
  caption: Schema.NullOr(Schema.String),
  postState: Schema.NullOr(JobStatus),
  clipId: Schema.NullOr(Schema.String)
})
export type ApprovalRow = typeof ApprovalRow.Type

const selectApprovals = `SELECT a.id, a.job_id, a.channel_id, c.name AS channel_name, a.state, a.note, a.requested_at,
    a.decided_at, j.template_id, coalesce(r.template_version, j.template_version) AS template_version,
    p.id AS post_id, p.platform, p.locale, p.ratio, p.caption, p.state AS post_state,
    (SELECT o.clip_id FROM render_outputs o JOIN clips k ON k.id = o.clip_id AND k.stored
      WHERE o.render_job_id = j.render_job_id LIMIT 1) AS clip_id
  FROM approvals a
  JOIN jobs j ON j.id = a.job_id
  JOIN channels c ON c.id = a.channel_id
  LEFT JOIN posts p ON p.job_id = a.job_id
  LEFT JOIN render_jobs r ON r.id = j.render_job_id`

/** Reads of the approval log and of one approval; SQL only, every query in the caller's workspace. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const page = SqlSchema.findAll({
    Request: Schema.Struct({
      workspaceId: WorkspaceId,
      state: Schema.optional(ApprovalState),
      limit: Schema.Number,
      offset: Schema.Number
    }),
    Result: ApprovalRow,
    execute: (r) =>
      sql`${sql.unsafe(selectApprovals)}
          WHERE a.workspace_id = ${r.workspaceId} ${r.state === undefined ? sql`` : sql`AND a.state = ${r.state}`}
          ORDER BY a.requested_at DESC, a.id DESC LIMIT ${r.limit} OFFSET ${r.offset}`
  })
  const counts = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Schema.Struct({ state: ApprovalState, n: Schema.Number }),
    execute: (workspaceId) =>
      sql`SELECT state, count(*)::int AS n FROM approvals WHERE workspace_id = ${workspaceId} GROUP BY state`
  })
  const one = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: ApprovalRow,
    execute: ({ id, workspaceId }) => sql`${sql.unsafe(selectApprovals)} WHERE a.workspace_id = ${workspaceId} AND a.id = ${id}`
  })
  const jobChannel = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: Schema.Struct({ channelId: Schema.String, status: JobStatus }),
    execute: ({ id, workspaceId }) => sql`SELECT channel_id, status FROM jobs WHERE workspace_id = ${workspaceId} AND id = ${id}`
  })
  return {
    page: (workspaceId: WorkspaceId, state: ApprovalState | undefined, limit: number, offset: number) =>
      Effect.orDie(page({ workspaceId, state, limit, offset })),
    stateCounts: (workspaceId: WorkspaceId) => Effect.orDie(counts(workspaceId)),
    find: (workspaceId: WorkspaceId, id: string) => Effect.orDie(one({ workspaceId, id })),
    /** The channel a job of the workspace belongs to (whose entity acts on it), and its status. */
    channelOfJob: (workspaceId: WorkspaceId, jobId: string) => Effect.orDie(jobChannel({ workspaceId, id: jobId }))
  }
})

export class ApprovalsQuery extends Context.Tag("clipwright/jobs/ApprovalsQuery")<
  ApprovalsQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(ApprovalsQuery, make)
}
