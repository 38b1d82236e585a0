import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { PackageState } from "./PostListRecord.js"

const QueueRow = Schema.Struct({ id: Schema.String, name: Schema.String, enabled: Schema.Boolean })
export type QueueRow = typeof QueueRow.Type

const Count = Schema.NullOr(Schema.Number)
export const PackageRow = Schema.Struct({
  id: Schema.String,
  queueId: Schema.String,
  title: Schema.String,
  templateId: Schema.String,
  templateVariant: Schema.String,
  templateVersion: Schema.NullOr(Schema.String),
  data: Schema.Unknown,
  scheduledFor: Schema.DateFromSelf,
  state: PackageState,
  firedAt: Schema.NullOr(Schema.DateFromSelf),
  ingestEventId: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  channels: Count,
  rendering: Count,
  rendered: Count,
  renderFailed: Count,
  published: Count,
  awaitingApproval: Count,
  publishFailed: Count
})
export type PackageRow = typeof PackageRow.Type

const SubscriberRow = Schema.Struct({
  queueId: Schema.String,
  channelId: Schema.String,
  channelName: Schema.String,
  brandName: Schema.String,
  listening: Schema.Boolean
})
export type SubscriberRow = typeof SubscriberRow.Type

export const PackageUse = Schema.Struct({
  queueId: Schema.String,
  queueName: Schema.String,
  packageId: Schema.String,
  title: Schema.String,
  scheduledFor: Schema.DateFromSelf
})

// The outcome is counted over the jobs the package's event made (a repost is a job of its own, not a channel more);
// a package not fired has no event, and the lateral join leaves its counts null.
const packageColumns = `p.id, p.queue_id, p.title, p.template_id, p.template_variant, p.template_version, p.data,
  p.scheduled_for, p.state, p.fired_at, p.ingest_event_id, p.error, o.channels, o.rendering, o.rendered,
  o.render_failed, o.published, o.awaiting_approval, o.publish_failed
  FROM queue_packages p LEFT JOIN LATERAL (
    SELECT count(*)::int AS channels,
      count(*) FILTER (WHERE j.status IN ('ACCEPTED', 'AWAITING_RENDERING', 'RENDERING', 'DOWNLOADING'))::int
        AS rendering,
      count(po.id)::int AS rendered,
      count(*) FILTER (WHERE j.status = 'RENDER_FAILED')::int AS render_failed,
      count(po.published_at)::int AS published,
      count(*) FILTER (WHERE j.status = 'AWAITING_APPROVAL')::int AS awaiting_approval,
      count(*) FILTER (WHERE j.status = 'POST_FAILED')::int AS publish_failed
    FROM jobs j LEFT JOIN posts po ON po.job_id = j.id
    WHERE j.ingest_event_id = p.ingest_event_id AND j.workspace_id = p.workspace_id AND j.repost_of IS NULL
  ) o ON p.ingest_event_id IS NOT NULL`

/** The post lists as views read them: SQL over the rows, never waking a list's entity. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const lists = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, queueId: Schema.NullOr(Schema.String) }),
    Result: QueueRow,
    execute: ({ queueId, workspaceId }) =>
      sql`SELECT id, name, enabled FROM queues WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL
            ${queueId === null ? sql`` : sql`AND id = ${queueId}`}
          ORDER BY created_at, id`
  })
  const packages = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, queueIds: Schema.Array(Schema.String) }),
    Result: PackageRow,
    execute: ({ queueIds, workspaceId }) =>
      sql`SELECT ${sql.unsafe(packageColumns)}
          WHERE p.workspace_id = ${workspaceId} AND p.queue_id = ANY(${queueIds}::text[])
          ORDER BY p.scheduled_for, p.id`
  })
  const onePackage = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, queueId: Schema.String, packageId: Schema.String }),
    Result: PackageRow,
    execute: ({ packageId, queueId, workspaceId }) =>
      sql`SELECT ${sql.unsafe(packageColumns)}
          WHERE p.workspace_id = ${workspaceId} AND p.queue_id = ${queueId} AND p.id = ${packageId}`
  })
  const subscribers = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, queueIds: Schema.Array(Schema.String) }),
    Result: SubscriberRow,
    execute: ({ queueIds, workspaceId }) =>
      sql`SELECT s.queue_id, c.id AS channel_id, c.name AS channel_name, b.name AS brand_name,
            (s.enabled AND c.enabled) AS listening
          FROM channel_subscriptions s JOIN channels c ON c.id = s.channel_id JOIN brands b ON b.id = c.brand_id
          WHERE s.workspace_id = ${workspaceId} AND s.kind = 'QUEUE' AND s.queue_id = ANY(${queueIds}::text[])
            AND c.deleted_at IS NULL
          ORDER BY c.created_at, c.id`
  })
  // A reference is the JSON string `"media://<id>"` anywhere in the data.
  const uses = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, fileId: Schema.String }),
    Result: PackageUse,
    execute: ({ fileId, workspaceId }) =>
      sql`SELECT q.id AS queue_id, q.name AS queue_name, p.id AS package_id, p.title, p.scheduled_for
          FROM queue_packages p JOIN queues q ON q.id = p.queue_id
          WHERE p.workspace_id = ${workspaceId} AND p.state = 'SCHEDULED'
            AND strpos(p.data::text, ${`"media://${fileId}"`}) > 0
          ORDER BY p.scheduled_for, p.id`
  })

  return {
    /** The workspace's live lists (or the one asked for), oldest first. */
    lists: (workspaceId: WorkspaceId, queueId: string | null = null) => Effect.orDie(lists({ workspaceId, queueId })),
    /** The packages of these lists, by time. */
    packages: (workspaceId: WorkspaceId, queueIds: ReadonlyArray<string>) =>
      Effect.orDie(packages({ workspaceId, queueIds })),
    onePackage: (workspaceId: WorkspaceId, queueId: string, packageId: string) =>
      Effect.orDie(onePackage({ workspaceId, queueId, packageId })),
    /** The live channels subscribed to these lists; `listening` when a fired post reaches them. */
    subscribers: (workspaceId: WorkspaceId, queueIds: ReadonlyArray<string>) =>
      Effect.orDie(subscribers({ workspaceId, queueIds })),
    /** Scheduled packages whose data refers to the media file. */
    uses: (workspaceId: WorkspaceId, fileId: string) => Effect.orDie(uses({ workspaceId, fileId }))
  }
})

export class PostListQuery extends Context.Tag("clipwright/queues/PostListQuery")<
  PostListQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(PostListQuery, make)
}
