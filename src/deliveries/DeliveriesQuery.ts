import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { DeliveryEvent, DeliveryState, DeliveryVia } from "../channels/handover/DeliveryRecord.js"
import { WorkspaceId } from "../domain/Principal.js"
import { inOneSnapshot } from "../sql/Snapshot.js"

/** The most of an email's text a reader is shown. */
export const EMAIL_TEXT_MAX_BYTES = 64 * 1024

export const LoggedDelivery = Schema.Struct({
  id: Schema.String,
  via: DeliveryVia,
  event: DeliveryEvent,
  state: DeliveryState,
  attempt: Schema.Number,
  nextAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  lastStatusCode: Schema.NullOr(Schema.Number),
  lastError: Schema.NullOr(Schema.String),
  deliveredAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  postIds: Schema.Array(Schema.String),
  channelNames: Schema.Array(Schema.String),
  platform: Schema.NullOr(Schema.String)
})
export type LoggedDelivery = typeof LoggedDelivery.Type

export const StoredDelivery = Schema.Struct({
  ...LoggedDelivery.fields,
  url: Schema.NullOr(Schema.String),
  recipients: Schema.Array(Schema.String),
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  /** The whole webhook body; an email's first EMAIL_TEXT_MAX_BYTES. */
  body: Schema.NullOr(Schema.Uint8ArrayFromSelf),
  bodySize: Schema.NullOr(Schema.Number)
})
export type StoredDelivery = typeof StoredDelivery.Type

export const AttemptRow = Schema.Struct({
  attempt: Schema.Number,
  redelivery: Schema.Boolean,
  startedAt: Schema.DateFromSelf,
  durationMs: Schema.Number,
  statusCode: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  answer: Schema.NullOr(Schema.String),
  headers: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String }))
})
export type AttemptRow = typeof AttemptRow.Type

const One = Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String })

/** Reads of the deliveries log; SQL only, every query in the caller's workspace. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const snapshot = inOneSnapshot(sql)

  const logged = sql`d.id, d.via, d.event, d.state, d.attempt, d.next_attempt_at, d.last_status_code, d.last_error,
      d.delivered_at, d.created_at, coalesce(carried.post_ids, '{}') AS post_ids,
      coalesce(carried.channel_names, '{}') AS channel_names, carried.platforms[1] AS platform`
  // The posts a delivery carried, in the order it sent them.
  const carried = sql`LEFT JOIN LATERAL (
      SELECT array_agg(dp.post_id ORDER BY dp.position) AS post_ids,
        array_agg(c.name ORDER BY dp.position) AS channel_names,
        array_agg(p.platform ORDER BY dp.position) AS platforms
      FROM delivery_posts dp
      JOIN posts p ON p.id = dp.post_id AND p.workspace_id = d.workspace_id
      JOIN channels c ON c.id = p.channel_id
      WHERE dp.delivery_id = d.id) carried ON true`

  const recent = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, limit: Schema.Number }),
    Result: LoggedDelivery,
    execute: ({ limit, workspaceId }) =>
      sql`SELECT ${logged} FROM deliveries d ${carried}
          WHERE d.workspace_id = ${workspaceId} ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit}`
  })

  const one = SqlSchema.findOne({
    Request: One,
    Result: StoredDelivery,
    execute: ({ id, workspaceId }) =>
      sql`SELECT ${logged}, CASE WHEN d.via = 'webhook' THEN w.webhook_url END AS url, d.recipients, d.headers,
            CASE WHEN d.via = 'email' THEN substring(d.body FROM 1 FOR ${EMAIL_TEXT_MAX_BYTES}) ELSE d.body END AS body,
            octet_length(d.body) AS body_size
          FROM deliveries d JOIN workspaces w ON w.id = d.workspace_id ${carried}
          WHERE d.workspace_id = ${workspaceId} AND d.id = ${id}`
  })

  const attempts = SqlSchema.findAll({
    Request: One,
    Result: AttemptRow,
    execute: ({ id, workspaceId }) =>
      sql`SELECT a.attempt, a.redelivery, a.started_at, a.duration_ms, a.status_code, a.error, a.answer, a.headers
          FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
          WHERE d.workspace_id = ${workspaceId} AND a.delivery_id = ${id} ORDER BY a.attempt`
  })

  const standing = SqlSchema.findOne({
    Request: One,
    Result: Schema.Struct({ state: DeliveryState, owner: Schema.String }),
    execute: ({ id, workspaceId }) =>
      sql`SELECT state, owner FROM deliveries WHERE workspace_id = ${workspaceId} AND id = ${id}`
  })

  return {
    /** The newest `limit` deliveries of the workspace, newest first. */
    recent: (workspaceId: WorkspaceId, limit: number) => Effect.orDie(recent({ workspaceId, limit })),
    /**
     * One delivery of the workspace with what it carried (another workspace's id is not found) and its attempts, as of
     * one moment: an attempt and the state it leads to commit together, and are read together.
     */
    findWithAttempts: (workspaceId: WorkspaceId, id: string) =>
      Effect.orDie(snapshot(Effect.all([one({ workspaceId, id }), attempts({ workspaceId, id })]))),
    /** A delivery's state and the HandOver entity that owns it. */
    standing: (workspaceId: WorkspaceId, id: string) => Effect.orDie(standing({ workspaceId, id }))
  }
})

export class DeliveriesQuery extends Context.Tag("clipwright/deliveries/DeliveriesQuery")<
  DeliveriesQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(DeliveriesQuery, make)
}
