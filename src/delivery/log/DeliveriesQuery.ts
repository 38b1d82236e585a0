import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { inOneSnapshot } from "../../sql/Snapshot.js"
import {
  DeliveryAttemptRecord,
  DeliveryEvent,
  DeliveryRecord,
  DeliveryState,
  DeliveryVia
} from "../handover/DeliveryRecord.js"

/** The most of an email's text a reader is shown. */
export const EMAIL_TEXT_MAX_BYTES = 64 * 1024

/** A row of the log: the delivery's own columns as its record reads them, and the posts it carried. */
export const LoggedDelivery = Schema.Struct({
  ...DeliveryRecord.select.pick(
    "id",
    "via",
    "event",
    "state",
    "attempt",
    "nextAttemptAt",
    "lastStatusCode",
    "lastError",
    "deliveredAt",
    "createdAt"
  ).fields,
  postIds: Schema.Array(Schema.String),
  channelNames: Schema.Array(Schema.String),
  platform: Schema.NullOr(Schema.String)
})
export type LoggedDelivery = typeof LoggedDelivery.Type

export const StoredDelivery = Schema.Struct({
  ...LoggedDelivery.fields,
  url: Schema.NullOr(Schema.String),
  /** `body` is the whole webhook body; an email's first EMAIL_TEXT_MAX_BYTES. */
  ...DeliveryRecord.select.pick("recipients", "headers", "body").fields,
  bodySize: Schema.NullOr(Schema.Number)
})
export type StoredDelivery = typeof StoredDelivery.Type

export const AttemptRow = DeliveryAttemptRecord.select.omit("deliveryId")
export type AttemptRow = typeof AttemptRow.Type

const One = Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String })

/** What a page of the log may be narrowed to; every field left out matches all. */
export const DeliveryFilter = Schema.Struct({
  state: Schema.optional(DeliveryState),
  via: Schema.optional(DeliveryVia),
  event: Schema.optional(DeliveryEvent),
  /** Deliveries carrying at least one post of this channel. */
  channelId: Schema.optional(Schema.String)
})
export type DeliveryFilter = typeof DeliveryFilter.Type

const Filtered = Schema.Struct({ workspaceId: WorkspaceId, filter: DeliveryFilter })

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

  const matching = (workspaceId: string, f: DeliveryFilter) =>
    sql.and([
      sql`d.workspace_id = ${workspaceId}`,
      ...(f.state === undefined ? [] : [sql`d.state = ${f.state}`]),
      ...(f.via === undefined ? [] : [sql`d.via = ${f.via}`]),
      ...(f.event === undefined ? [] : [sql`d.event = ${f.event}`]),
      ...(f.channelId === undefined ? [] : [
        sql`EXISTS (SELECT 1 FROM delivery_posts dp JOIN posts p ON p.id = dp.post_id
              WHERE dp.delivery_id = d.id AND p.workspace_id = d.workspace_id AND p.channel_id = ${f.channelId})`
      ])
    ])

  // The page's rows are chosen first, so what each carried is looked up for those alone, not for the rows skipped.
  const page = SqlSchema.findAll({
    Request: Schema.Struct({ ...Filtered.fields, limit: Schema.Number, offset: Schema.Number }),
    Result: LoggedDelivery,
    execute: ({ filter, limit, offset, workspaceId }) =>
      sql`SELECT ${logged} FROM (
            SELECT * FROM deliveries d WHERE ${matching(workspaceId, filter)}
            ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit} OFFSET ${offset}) d ${carried}
          ORDER BY d.created_at DESC, d.id DESC`
  })

  // The dead are few and indexed apart; counting the whole log would read every delivery the workspace ever made.
  const dead = SqlSchema.single({
    Request: WorkspaceId,
    Result: Schema.Struct({ n: Schema.Number }),
    execute: (workspaceId) =>
      sql`SELECT count(*)::int AS n FROM deliveries WHERE workspace_id = ${workspaceId} AND state = 'DEAD'`
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
    Result: DeliveryRecord.select.pick("state", "owner"),
    execute: ({ id, workspaceId }) =>
      sql`SELECT state, owner FROM deliveries WHERE workspace_id = ${workspaceId} AND id = ${id}`
  })

  return {
    /** The newest `limit` deliveries of the workspace, newest first. */
    recent: (workspaceId: WorkspaceId, limit: number) => Effect.orDie(recent({ workspaceId, limit })),
    /** A page of the workspace's deliveries matching `filter`, newest first. */
    page: (workspaceId: WorkspaceId, filter: DeliveryFilter, limit: number, offset: number) =>
      Effect.orDie(page({ workspaceId, filter, limit, offset })),
    /** How many of the workspace's deliveries are dead. */
    deadCount: (workspaceId: WorkspaceId) => Effect.orDie(Effect.map(dead(workspaceId), ({ n }) => n)),
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

export class DeliveriesQuery extends Context.Tag("clipwright/delivery/log/DeliveriesQuery")<
  DeliveriesQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(DeliveriesQuery, make)
}
