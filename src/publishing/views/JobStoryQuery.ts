import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { JobStatus } from "../../posts/JobStatus.js"

const Text = Schema.NullOr(Schema.String)
const Time = Schema.NullOr(Schema.DateFromSelf)

/** One job with everything it is made of: its event, channel, render, post and approval (each absent until made). */
export const JobStoryRow = Schema.Struct({
  id: Schema.String,
  status: JobStatus,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  scheduledFor: Time,
  error: Text,
  repostOf: Text,
  templateId: Schema.String,
  templateVariant: Text,
  templateVersion: Text,
  ratio: Schema.String,
  locale: Schema.String,
  channelId: Schema.String,
  channelName: Schema.String,
  channelApproval: Schema.String,
  brandName: Schema.String,
  ingestEventId: Schema.String,
  eventId: Schema.String,
  eventOrigin: Schema.String,
  eventDetails: Schema.String,
  eventTitle: Text,
  occurredAt: Schema.DateFromSelf,
  receivedAt: Schema.DateFromSelf,
  renderId: Text,
  renderState: Text,
  renderProgress: Schema.NullOr(Schema.Number),
  renderSubmittedAt: Time,
  renderStartedAt: Time,
  renderFinishedAt: Time,
  renderError: Text,
  postId: Text,
  platform: Text,
  surface: Text,
  postTitle: Text,
  caption: Text,
  hashtags: Schema.NullOr(Schema.Array(Schema.String)),
  postCreatedAt: Time,
  postScheduledFor: Time,
  publishedAt: Time,
  platformPostId: Text,
  permalink: Text,
  failureReason: Text,
  approvalId: Text,
  approvalState: Text,
  requestedAt: Time,
  decidedAt: Time,
  decidedBy: Text,
  note: Text
})
export type JobStoryRow = typeof JobStoryRow.Type

/** Every hand-over of a post (publish, update, delete), with each of its attempts; a delivery not tried has none. */
export const HandOverRow = Schema.Struct({
  id: Schema.String,
  via: Schema.String,
  event: Schema.String,
  state: Schema.String,
  attempts: Schema.Number,
  nextAttemptAt: Time,
  deliveredAt: Time,
  createdAt: Schema.DateFromSelf,
  attempt: Schema.NullOr(Schema.Number),
  redelivery: Schema.NullOr(Schema.Boolean),
  startedAt: Time,
  durationMs: Schema.NullOr(Schema.Number),
  statusCode: Schema.NullOr(Schema.Number),
  attemptError: Text
})
export type HandOverRow = typeof HandOverRow.Type

const One = Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String })

/** A job's whole story for its page; SQL only, in the caller's workspace. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const story = SqlSchema.findOne({
    Request: One,
    Result: JobStoryRow,
    execute: ({ id, workspaceId }) =>
      sql`SELECT j.id,
            CASE WHEN j.status = 'AWAITING_RENDERING' AND r.state IN ('SUBMITTED', 'RENDERING') THEN 'RENDERING'
              WHEN j.status = 'AWAITING_RENDERING' AND r.state IN ('DOWNLOADING', 'STORED') THEN 'DOWNLOADING'
              ELSE j.status END AS status,
            j.created_at, j.updated_at, j.scheduled_for, j.error, j.repost_of, j.template_id, j.template_variant,
            j.template_version, j.ratio, j.locale, c.id AS channel_id, c.name AS channel_name,
            c.approval AS channel_approval, b.name AS brand_name, e.id AS ingest_event_id, e.event_id,
            e.origin AS event_origin, e.details AS event_details, e.post_title AS event_title, e.occurred_at,
            e.received_at, r.id AS render_id, r.state AS render_state, r.progress AS render_progress,
            r.submitted_at AS render_submitted_at, r.started_at AS render_started_at,
            r.finished_at AS render_finished_at, r.error AS render_error, p.id AS post_id, p.platform, p.surface,
            p.title AS post_title, p.caption, p.hashtags, p.created_at AS post_created_at,
            p.scheduled_for AS post_scheduled_for, p.published_at, p.platform_post_id, p.permalink,
            p.failure_reason, a.id AS approval_id, a.state AS approval_state, a.requested_at, a.decided_at,
            a.decided_by, a.note
          FROM jobs j
          JOIN channels c ON c.id = j.channel_id
          JOIN brands b ON b.id = c.brand_id
          JOIN ingest_events e ON e.id = j.ingest_event_id
          LEFT JOIN render_jobs r ON r.id = j.render_job_id AND r.workspace_id = j.workspace_id
          LEFT JOIN posts p ON p.job_id = j.id AND p.workspace_id = j.workspace_id
          LEFT JOIN approvals a ON a.job_id = j.id AND a.workspace_id = j.workspace_id
          WHERE j.workspace_id = ${workspaceId} AND j.id = ${id}`
  })

  const handOvers = SqlSchema.findAll({
    Request: One,
    Result: HandOverRow,
    execute: ({ id, workspaceId }) =>
      sql`SELECT d.id, d.via, d.event, d.state, d.attempt AS attempts, d.next_attempt_at, d.delivered_at,
            d.created_at, a.attempt, a.redelivery, a.started_at, a.duration_ms, a.status_code, a.error AS attempt_error
          FROM delivery_posts dp
          JOIN deliveries d ON d.id = dp.delivery_id AND d.workspace_id = ${workspaceId}
          LEFT JOIN delivery_attempts a ON a.delivery_id = d.id
          WHERE dp.post_id = ${id}
          ORDER BY d.created_at, d.id, a.attempt`
  })

  return {
    /** The job `id` of the workspace with its parts; another workspace's is none. */
    story: (workspaceId: WorkspaceId, id: string) => Effect.orDie(story({ workspaceId, id })),
    /** The deliveries that carried post `id` of the workspace, oldest first, one row per attempt. */
    handOvers: (workspaceId: WorkspaceId, postId: string) => Effect.orDie(handOvers({ workspaceId, id: postId }))
  }
})

export class JobStoryQuery extends Context.Tag("clipwright/publishing/views/JobStoryQuery")<
  JobStoryQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(JobStoryQuery, make)
}
