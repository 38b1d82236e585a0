import { SqlClient, SqlSchema, type Statement } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { JobStatus, stageOf } from "../../posts/JobStatus.js"
import { derivedStatuses } from "../../posts/JobStatusSteps.js"
import { RenderJobState } from "../../renders/RenderJob.js"
import { aheadCounts, renderOrder, renderQueueCte } from "../../renders/RenderQueueOrder.js"
import { renderDetails } from "../../sql/SourceNames.js"
import { RecentRenderEntry } from "./PipelineAnswers.js"
import { CalendarPostRow } from "./PipelineCalendar.js"

const Count = Schema.Number

/** The stored statuses of the stages underway (the derived RENDERING and DOWNLOADING are AWAITING_RENDERING rows). */
const IN_FLIGHT_STORED = JobStatus.literals.filter((s) =>
  ["rendering", "approval", "scheduled", "publishing"].includes(stageOf[s]) && !derivedStatuses.includes(s)
)

/** A job as the pipeline shows it: its derived status, where it goes and what it is about. */
export const PipelineJobRow = Schema.Struct({
  id: Schema.String,
  status: JobStatus,
  templateId: Schema.String,
  brandName: Schema.String,
  channelName: Schema.String,
  streamId: Schema.NullOr(Schema.String),
  feedId: Schema.NullOr(Schema.String),
  title: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  clipId: Schema.NullOr(Schema.String),
  renderPosition: Schema.NullOr(Schema.Number),
  aheadOtherWorkspaces: Schema.NullOr(Schema.Number),
  aheadOwnPipeline: Schema.NullOr(Schema.Number),
  aheadOwnExports: Schema.NullOr(Schema.Number),
  scheduledFor: Schema.NullOr(Schema.DateFromSelf),
  nextAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type PipelineJobRow = typeof PipelineJobRow.Type

/** A recent render as the pipeline lists it (RecentRenderEntry), with its time as the database has it. */
export const RecentRender = Schema.Struct({
  ...RecentRenderEntry.omit("createdAt").fields,
  submittedAt: Schema.DateFromSelf
})
export type RecentRender = typeof RecentRender.Type

export const OverviewRow = Schema.Struct({
  brands: Count,
  channels: Count,
  subscriptions: Count,
  mirrored: Count,
  ingestTotal: Count,
  ingestLast24h: Count,
  assets: Count,
  pendingApprovals: Count,
  deadDeliveries: Count
})

const Window = { workspaceId: WorkspaceId, from: Schema.DateFromSelf, to: Schema.DateFromSelf }
const ChannelIds = Schema.optional(Schema.Array(Schema.String))

/** Tenant-scoped reads behind `/v1/pipeline`, `/v1/overview` and `/v1/calendar`; never wakes an entity. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const order = yield* renderOrder

  // The job row stays AWAITING_RENDERING while its render runs; what the render is doing shows through.
  const status = sql`CASE
      WHEN j.status = 'AWAITING_RENDERING' AND r.state IN ('SUBMITTED', 'RENDERING') THEN 'RENDERING'
      WHEN j.status = 'AWAITING_RENDERING' AND r.state IN ('DOWNLOADING', 'STORED') THEN 'DOWNLOADING'
      ELSE j.status END`
  const withRender = sql`LEFT JOIN render_jobs r ON r.id = j.render_job_id AND r.workspace_id = j.workspace_id`

  const jobRows = (workspaceId: string, where: Statement.Fragment, limit: number, offset = 0) =>
    sql`WITH ${renderQueueCte(sql, order)}
        SELECT j.id, ${status} AS status, j.template_id, b.name AS brand_name, c.name AS channel_name,
          e.stream_id, e.feed_id, COALESCE(p.title, e.post_title) AS title, j.error, j.created_at, j.updated_at,
          (SELECT cl.id FROM render_outputs o JOIN clips cl ON cl.id = o.clip_id
            WHERE o.render_job_id = j.render_job_id AND cl.workspace_id = j.workspace_id AND cl.stored
            ORDER BY cl.created_at, cl.id LIMIT 1) AS clip_id,
          -- A waiting render's place in the cluster's fair order, and whose renders are before it.
          ahead.other_workspaces + ahead.own_pipeline + ahead.own_exports + 1 AS render_position,
          ahead.other_workspaces AS ahead_other_workspaces, ahead.own_pipeline AS ahead_own_pipeline,
          ahead.own_exports AS ahead_own_exports, COALESCE(p.scheduled_for, j.scheduled_for) AS scheduled_for,
          -- A hand-over being retried: when its publish delivery is tried next (the partial index finds the post's).
          CASE WHEN j.status = 'PUBLISHING' THEN (SELECT min(d.next_attempt_at) FROM delivery_posts dp
            JOIN deliveries d ON d.id = dp.delivery_id AND d.workspace_id = j.workspace_id
            WHERE dp.post_id = p.id AND dp.event = 'post.publish' AND d.state = 'RETRYING') END AS next_attempt_at
        FROM jobs j
        JOIN channels c ON c.id = j.channel_id
        JOIN brands b ON b.id = c.brand_id
        JOIN ingest_events e ON e.id = j.ingest_event_id
        LEFT JOIN posts p ON p.job_id = j.id
        ${withRender}
        LEFT JOIN LATERAL (${aheadCounts(sql, sql`me.id = r.id`)}) ahead
          ON j.status = 'AWAITING_RENDERING' AND r.state = 'PENDING'
        WHERE j.workspace_id = ${workspaceId} AND ${where}
        ORDER BY j.created_at DESC, j.id DESC LIMIT ${limit} OFFSET ${offset}`

  const recentJobs = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, limit: Schema.Number }),
    Result: PipelineJobRow,
    execute: ({ limit, workspaceId }) => jobRows(workspaceId, sql`true`, limit)
  })

  const inFlightJobs = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, limit: Schema.Number, offset: Schema.Number }),
    Result: PipelineJobRow,
    execute: ({ limit, offset, workspaceId }) =>
      jobRows(workspaceId, sql`j.status IN ${sql.in(IN_FLIGHT_STORED)}`, limit, offset)
  })

  const oneJob = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: PipelineJobRow,
    execute: ({ id, workspaceId }) => jobRows(workspaceId, sql`j.id = ${id}`, 1)
  })

  const jobCounts = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Schema.Struct({ status: JobStatus, n: Count }),
    execute: (workspaceId) =>
      sql`SELECT ${status} AS status, count(*)::int AS n FROM jobs j ${withRender}
          WHERE j.workspace_id = ${workspaceId} GROUP BY 1`
  })

  const postCounts = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Schema.Struct({ status: JobStatus, n: Count }),
    execute: (workspaceId) =>
      sql`SELECT ${status} AS status, count(*)::int AS n FROM posts p JOIN jobs j ON j.id = p.job_id ${withRender}
          WHERE p.workspace_id = ${workspaceId} AND j.workspace_id = ${workspaceId} GROUP BY 1`
  })

  const clipCounts = SqlSchema.single({
    Request: WorkspaceId,
    Result: Schema.Struct({ stored: Count, removed: Count }),
    execute: (workspaceId) =>
      sql`SELECT count(*) FILTER (WHERE cl.stored)::int AS stored, count(*) FILTER (WHERE NOT cl.stored)::int AS removed
          FROM clips cl WHERE cl.workspace_id = ${workspaceId} AND cl.render_job_id IN
            (SELECT j.render_job_id FROM jobs j WHERE j.workspace_id = ${workspaceId} AND j.render_job_id IS NOT NULL)`
  })

  const renderCounts = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Schema.Struct({ state: RenderJobState, n: Count }),
    execute: (workspaceId) =>
      sql`SELECT state, count(*)::int AS n FROM render_jobs WHERE workspace_id = ${workspaceId} GROUP BY state`
  })

  const recentRenders = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, limit: Schema.Number }),
    Result: RecentRender,
    execute: ({ limit, workspaceId }) =>
      sql`SELECT r.id, r.state, r.progress, r.origin, ${renderDetails(sql, "r")} AS details, r.template_id,
            r.submitted_at FROM render_jobs r
          WHERE r.workspace_id = ${workspaceId} ORDER BY r.submitted_at DESC, r.id DESC LIMIT ${limit}`
  })

  const overview = SqlSchema.single({
    Request: WorkspaceId,
    Result: OverviewRow,
    execute: (ws) =>
      sql`SELECT
          (SELECT count(*) FROM brands WHERE workspace_id = ${ws} AND deleted_at IS NULL)::int AS brands,
          (SELECT count(*) FROM channels WHERE workspace_id = ${ws} AND deleted_at IS NULL)::int AS channels,
          (SELECT count(*) FROM channel_subscriptions s JOIN channels c ON c.id = s.channel_id
            WHERE s.workspace_id = ${ws} AND s.enabled AND c.deleted_at IS NULL)::int AS subscriptions,
          (SELECT count(*) FROM template_syncs WHERE workspace_id = ${ws})::int AS mirrored,
          (SELECT count(*) FROM ingest_events WHERE workspace_id = ${ws})::int AS ingest_total,
          (SELECT count(*) FROM ingest_events
            WHERE workspace_id = ${ws} AND received_at > now() - interval '24 hours')::int AS ingest_last24h,
          ((SELECT count(*) FROM clips WHERE workspace_id = ${ws} AND stored)
            + (SELECT count(*) FROM media_files WHERE workspace_id = ${ws} AND deleted_at IS NULL))::int AS assets,
          (SELECT count(*) FROM approvals WHERE workspace_id = ${ws} AND state = 'PENDING')::int AS pending_approvals,
          (SELECT count(*) FROM deliveries WHERE workspace_id = ${ws} AND state = 'DEAD')::int AS dead_deliveries`
  })

  const at = sql`COALESCE(p.published_at, p.scheduled_for)`
  const inChannels = (ids: ReadonlyArray<string> | undefined, column: string) =>
    ids === undefined ? [] : [sql.in(column, ids)]

  const calendarPosts = SqlSchema.findAll({
    Request: Schema.Struct({ ...Window, channelIds: ChannelIds }),
    Result: CalendarPostRow,
    execute: (r) =>
      sql`SELECT p.id, p.job_id, ${at} AS at, p.published_at, ${status} AS state, p.channel_id,
            c.name AS channel_name, p.platform, p.title
          FROM posts p JOIN jobs j ON j.id = p.job_id JOIN channels c ON c.id = p.channel_id ${withRender}
          WHERE ${
        sql.and([
          sql`p.workspace_id = ${r.workspaceId}`,
          sql`j.workspace_id = ${r.workspaceId}`,
          sql`${at} >= ${r.from}`,
          sql`${at} < ${r.to}`,
          ...inChannels(r.channelIds, "p.channel_id")
        ])
      }
          ORDER BY ${at}, p.id`
  })

  const liveChannels = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, channelIds: ChannelIds }),
    Result: Schema.Struct({ id: Schema.String, name: Schema.String }),
    execute: (r) =>
      sql`SELECT c.id, c.name FROM channels c
          WHERE ${
        sql.and([
          sql`c.workspace_id = ${r.workspaceId}`,
          sql`c.deleted_at IS NULL`,
          ...inChannels(r.channelIds, "c.id")
        ])
      }
          ORDER BY c.name, c.id`
  })

  return {
    /** The newest `limit` jobs of the workspace, newest first. */
    recentJobs: (workspaceId: WorkspaceId, limit: number) => Effect.orDie(recentJobs({ workspaceId, limit })),
    /** A page of the workspace's jobs still on their way (rendering to publishing), newest first. */
    inFlightJobs: (workspaceId: WorkspaceId, limit: number, offset: number) =>
      Effect.orDie(inFlightJobs({ workspaceId, limit, offset })),
    /** One job of the workspace; another workspace's id is not found. */
    findJob: (workspaceId: WorkspaceId, id: string) => Effect.orDie(oneJob({ workspaceId, id })),
    /** Jobs per derived status (statuses without jobs left out). */
    jobCounts: (workspaceId: WorkspaceId) => Effect.orDie(jobCounts(workspaceId)),
    /** Posts per state, a post's state being its job's derived status. */
    postCounts: (workspaceId: WorkspaceId) => Effect.orDie(postCounts(workspaceId)),
    /** Clips of the renders the workspace's jobs use, kept or removed for room. */
    clipCounts: (workspaceId: WorkspaceId) => Effect.orDie(clipCounts(workspaceId)),
    renderCounts: (workspaceId: WorkspaceId) => Effect.orDie(renderCounts(workspaceId)),
    recentRenders: (workspaceId: WorkspaceId, limit: number) => Effect.orDie(recentRenders({ workspaceId, limit })),
    overview: (workspaceId: WorkspaceId) => Effect.orDie(overview(workspaceId)),
    /** Posts whose `at` (published, else scheduled) falls in [from, to), by `at`; `channelIds` narrows them. */
    calendarPosts: (workspaceId: WorkspaceId, from: Date, to: Date, channelIds: ReadonlyArray<string> | undefined) =>
      Effect.orDie(calendarPosts({ workspaceId, from, to, channelIds })),
    /** The workspace's live channels, by name; `channelIds` narrows them. */
    liveChannels: (workspaceId: WorkspaceId, channelIds: ReadonlyArray<string> | undefined) =>
      Effect.orDie(liveChannels({ workspaceId, channelIds }))
  }
})

export class PipelineQuery extends Context.Tag("clipwright/publishing/pipeline/PipelineQuery")<
  PipelineQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(PipelineQuery, make)
}
