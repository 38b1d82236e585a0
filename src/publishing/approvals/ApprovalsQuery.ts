import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { JobStatus } from "../../posts/JobStatus.js"
import { ApprovalRecord, ApprovalState } from "../states/ApprovalRecord.js"

/** An approval with its job's build and its post (none yet is possible: a left join). */
export const ApprovalRow = Schema.Struct({
  ...ApprovalRecord.select.pick("id", "jobId", "channelId", "state", "note", "requestedAt", "decidedAt", "decidedBy")
    .fields,
  channelName: Schema.String,
  templateId: Schema.String,
  templateVersion: Schema.NullOr(Schema.String),
  postId: Schema.NullOr(Schema.String),
  platform: Schema.NullOr(Schema.String),
  surface: Schema.NullOr(Schema.String),
  locale: Schema.NullOr(Schema.String),
  ratio: Schema.NullOr(Schema.String),
  title: Schema.NullOr(Schema.String),
  caption: Schema.NullOr(Schema.String),
  hashtags: Schema.NullOr(Schema.Array(Schema.String)),
  scheduledFor: Schema.NullOr(Schema.DateFromSelf),
  postState: Schema.NullOr(JobStatus),
  clipId: Schema.NullOr(Schema.String)
})
export type ApprovalRow = typeof ApprovalRow.Type

const selectApprovals = `SELECT a.id, a.job_id, a.channel_id, c.name AS channel_name, a.state, a.note, a.requested_at,
    a.decided_at, a.decided_by, j.template_id, coalesce(r.template_version, j.template_version) AS template_version,
    p.id AS post_id, p.platform, p.surface, p.locale, p.ratio, p.title, p.caption, p.hashtags,
    p.scheduled_for, p.state AS post_state,
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
      channelId: Schema.optional(Schema.String),
      limit: Schema.Number,
      offset: Schema.Number
    }),
    Result: ApprovalRow,
    execute: (r) =>
      sql`${sql.unsafe(selectApprovals)}
          WHERE a.workspace_id = ${r.workspaceId} ${r.state === undefined ? sql`` : sql`AND a.state = ${r.state}`}
            ${r.channelId === undefined ? sql`` : sql`AND a.channel_id = ${r.channelId}`}
          ORDER BY a.requested_at DESC, a.id DESC LIMIT ${r.limit} OFFSET ${r.offset}`
  })
  const counts = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, channelId: Schema.optional(Schema.String) }),
    Result: Schema.Struct({ state: ApprovalState, n: Schema.Number }),
    execute: ({ channelId, workspaceId }) =>
      sql`SELECT state, count(*)::int AS n FROM approvals WHERE workspace_id = ${workspaceId}
          ${channelId === undefined ? sql`` : sql`AND channel_id = ${channelId}`} GROUP BY state`
  })
  const one = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: ApprovalRow,
    execute: ({ id, workspaceId }) =>
      sql`${sql.unsafe(selectApprovals)} WHERE a.workspace_id = ${workspaceId} AND a.id = ${id}`
  })
  const jobChannel = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: Schema.Struct({ channelId: Schema.String, status: JobStatus }),
    execute: ({ id, workspaceId }) =>
      sql`SELECT channel_id, status FROM jobs WHERE workspace_id = ${workspaceId} AND id = ${id}`
  })
  return {
    page: (
      workspaceId: WorkspaceId,
      filter: { readonly state?: ApprovalState | undefined; readonly channelId?: string | undefined },
      limit: number,
      offset: number
    ) => Effect.orDie(page({ workspaceId, state: filter.state, channelId: filter.channelId, limit, offset })),
    /** Approvals per state, of one channel when given. */
    stateCounts: (workspaceId: WorkspaceId, channelId?: string) => Effect.orDie(counts({ workspaceId, channelId })),
    find: (workspaceId: WorkspaceId, id: string) => Effect.orDie(one({ workspaceId, id })),
    /** The channel a job of the workspace belongs to (whose entity acts on it), and its status. */
    channelOfJob: (workspaceId: WorkspaceId, jobId: string) => Effect.orDie(jobChannel({ workspaceId, id: jobId }))
  }
})

export class ApprovalsQuery extends Context.Tag("clipwright/publishing/approvals/ApprovalsQuery")<
  ApprovalsQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(ApprovalsQuery, make)
}
