import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { Posting } from "../../channels/Channel.js"
import { WorkspaceId } from "../../domain/Principal.js"
import { statusSteps } from "../../posts/JobStatusSteps.js"
import { type DueEvent, DueEvent as DueEventSchema } from "./HandOverEntity.js"

const { handOver } = statusSteps

/** A post whose time came, with everything its hand-over carries. */
export const DuePost = Schema.Struct({
  jobId: Schema.String,
  workspaceId: WorkspaceId,
  ingestEventId: Schema.String,
  senderEventId: Schema.NullOr(Schema.String),
  origin: Schema.String,
  postTitle: Schema.NullOr(Schema.String),
  content: Schema.Unknown,
  /** The job went through an approval: it is handed over on its own (SPEC Events rule 2). */
  approved: Schema.Boolean,
  postId: Schema.String,
  locale: Schema.String,
  ratio: Schema.String,
  title: Schema.String,
  caption: Schema.String,
  hashtags: Schema.Array(Schema.String),
  platform: Schema.String,
  surface: Schema.String,
  scheduledFor: Schema.DateFromSelf,
  platformPostId: Schema.NullOr(Schema.String),
  permalink: Schema.NullOr(Schema.String),
  channelId: Schema.String,
  channelName: Schema.String,
  posting: Posting,
  deliverByEmail: Schema.Boolean,
  deliverByWebhook: Schema.Boolean,
  clipId: Schema.NullOr(Schema.String)
})
export type DuePost = typeof DuePost.Type

const Events = Schema.Array(DueEventSchema)

const postColumns =
  `j.id AS job_id, j.workspace_id, j.ingest_event_id, e.event_id AS sender_event_id, j.origin, e.post_title,
  e.normalized AS content, EXISTS (SELECT 1 FROM approvals a WHERE a.job_id = j.id) AS approved,
  p.id AS post_id, p.locale, p.ratio, p.title, p.caption, p.hashtags, p.platform, p.surface, p.scheduled_for,
  p.platform_post_id, p.permalink, c.id AS channel_id, c.name AS channel_name, c.posting, c.deliver_by_email,
  c.deliver_by_webhook,
  (SELECT cl.id FROM clips cl WHERE cl.render_job_id = p.render_job_id AND cl.workspace_id = p.workspace_id
     AND cl.stored ORDER BY cl.created_at LIMIT 1) AS clip_id
  FROM jobs j JOIN posts p ON p.job_id = j.id JOIN channels c ON c.id = j.channel_id
  JOIN ingest_events e ON e.id = j.ingest_event_id`

/**
 * Finding and claiming posts whose time came. The dispatcher's claim marks due jobs (so two nodes do not send the
 * same events at once); the HandOver entity then takes each event's ready posts under row locks and moves them on.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pairs = (events: ReadonlyArray<{ readonly workspaceId: string; readonly ingestEventId: string }>) =>
    sql`SELECT * FROM unnest(${events.map((e) => e.workspaceId)}::text[], ${
      events.map((e) => e.ingestEventId)
    }::text[])`

  const claim = SqlSchema.findAll({
    Request: Schema.Struct({ limit: Schema.Number, againAfterSeconds: Schema.Number }),
    Result: DueEventSchema,
    execute: ({ againAfterSeconds, limit }) =>
      sql`WITH claimed AS (
            UPDATE jobs SET handover_claimed_at = now()
            WHERE id IN (
              SELECT id FROM jobs
              WHERE status = 'SCHEDULED' AND scheduled_for <= now()
                AND (handover_claimed_at IS NULL OR handover_claimed_at < now() - make_interval(secs => ${againAfterSeconds}))
              ORDER BY scheduled_for LIMIT ${limit}
              FOR UPDATE SKIP LOCKED)
            RETURNING workspace_id, ingest_event_id)
          SELECT DISTINCT workspace_id, ingest_event_id FROM claimed`
  })
  const lockDue = SqlSchema.findAll({
    Request: Events,
    Result: DuePost,
    execute: (events) =>
      sql`SELECT ${sql.unsafe(postColumns)}
          WHERE (j.workspace_id, j.ingest_event_id) IN (${pairs(events)})
            AND j.status = 'SCHEDULED' AND j.scheduled_for <= now()
          ORDER BY j.created_at, j.id
          FOR UPDATE OF j`
  })
  // An event's channels without approval go together once every one of them is rendered and due. A job that became
  // due after `lockDue` read (it is not among the locked) waits too: its own claim brings the whole event.
  const waiting = SqlSchema.findAll({
    Request: Schema.Struct({ events: Events, locked: Schema.Array(Schema.String) }),
    Result: Schema.Struct({ ingestEventId: Schema.String }),
    execute: ({ events, locked }) =>
      sql`SELECT DISTINCT j.ingest_event_id FROM jobs j JOIN channels c ON c.id = j.channel_id
          WHERE (j.workspace_id, j.ingest_event_id) IN (${pairs(events)})
            AND NOT EXISTS (SELECT 1 FROM approvals a WHERE a.job_id = j.id)
            AND ((j.status IN ('ACCEPTED', 'AWAITING_RENDERING') AND c.approval = 'NONE')
              OR (j.status = 'SCHEDULED' AND (j.scheduled_for > now() OR j.id <> ALL(${locked}::text[]))))`
  })
  const publishing = SqlSchema.findAll({
    Request: Schema.Array(Schema.String),
    Result: Schema.Struct({ id: Schema.String }),
    execute: (jobIds) =>
      sql`WITH moved AS (UPDATE jobs SET status = ${handOver.to}, updated_at = now()
            WHERE id = ANY(${jobIds}::text[]) AND status IN ${sql.in(handOver.from)} RETURNING id),
          posted AS (UPDATE posts SET state = ${handOver.to}, updated_at = now()
            WHERE job_id IN (SELECT id FROM moved) RETURNING 1)
          SELECT id FROM moved`
  })
  const publishedOf = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, jobId: Schema.String }),
    Result: DuePost,
    execute: ({ jobId, workspaceId }) =>
      sql`SELECT ${sql.unsafe(postColumns)} WHERE j.workspace_id = ${workspaceId} AND j.id = ${jobId}`
  })
  const carriedBy = SqlSchema.findAll({
    Request: Schema.String,
    Result: DuePost,
    execute: (deliveryId) =>
      sql`SELECT ${sql.unsafe(postColumns)} JOIN delivery_posts dp ON dp.post_id = p.id
          WHERE dp.delivery_id = ${deliveryId} ORDER BY dp.position`
  })

  return {
    /** Across workspaces, for the dispatcher: the events of up to `limit` due jobs nobody claimed lately. */
    claimDue: (limit: number, againAfterSeconds: number) => Effect.orDie(claim({ limit, againAfterSeconds })),
    /** The due posts of the events, locked until the transaction ends. */
    lockDue: (events: ReadonlyArray<DueEvent>) => Effect.orDie(lockDue(events)),
    /** Those of the events whose channels without approval are not all rendered, due and among `locked` yet. */
    waitingEvents: (events: ReadonlyArray<DueEvent>, locked: ReadonlyArray<string>) =>
      Effect.map(Effect.orDie(waiting({ events, locked })), (rows) => new Set(rows.map((row) => row.ingestEventId))),
    /** The `handOver` step, SCHEDULED → PUBLISHING (job and post); answers the jobs moved. */
    markPublishing: (jobIds: ReadonlyArray<string>) =>
      jobIds.length === 0
        ? Effect.succeed([])
        : Effect.map(Effect.orDie(publishing(jobIds)), (rows) => rows.map((r) => r.id)),
    /** A job's post as an update or delete carries it. */
    postOf: (workspaceId: WorkspaceId, jobId: string) => Effect.orDie(publishedOf({ workspaceId, jobId })),
    /** The posts a delivery carries, in its order (for composing its email). */
    carriedBy: (deliveryId: string) => Effect.orDie(carriedBy(deliveryId)),
    withTransaction: sql.withTransaction
  }
})

export class DueRepo
  extends Context.Tag("clipwright/delivery/handover/DueRepo")<DueRepo, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(DueRepo, make)
}
