import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { type DeliveryAttemptRecord, DeliveryRecord } from "./DeliveryRecord.js"

/** Where a delivery goes: the workspace's webhook and secret, and who its emails go to. */
export const HandOverTarget = Schema.Struct({
  workspaceId: WorkspaceId,
  name: Schema.String,
  webhookUrl: Schema.NullOr(Schema.String),
  webhookSecret: Schema.NullOr(Schema.String),
  recipients: Schema.Array(Schema.String)
})
export type HandOverTarget = typeof HandOverTarget.Type

/**
 * One attempt's result, as recorded: the attempt's row (its number is counted by the statement) and the delivery's
 * state after it (`nextAttemptAt` set when another attempt is timed).
 */
export interface AttemptRecord
  extends Omit<DeliveryAttemptRecord, "attempt">, Pick<DeliveryRecord, "state" | "nextAttemptAt">
{}

const DeliveryPost = Schema.Struct({
  deliveryId: Schema.String,
  postId: Schema.String,
  position: Schema.Number,
  via: Schema.String,
  event: Schema.String
})
export type DeliveryPost = typeof DeliveryPost.Type

const columns = "id, workspace_id, owner, request_key, via, event, ingest_event_id, state, attempt, next_attempt_at, " +
  "last_status_code, last_error, delivered_at, body, headers, recipients, changes, created_at, updated_at"

/** Deliveries and their attempts, written by their HandOver entity (and created by the pipeline that hands over). */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const insert = SqlSchema.void({
    Request: Schema.Array(DeliveryRecord.insert),
    execute: (rows) => sql`INSERT INTO deliveries ${sql.insert(rows)} ON CONFLICT DO NOTHING`
  })
  const insertPosts = SqlSchema.void({
    Request: Schema.Array(DeliveryPost),
    execute: (rows) => sql`INSERT INTO delivery_posts ${sql.insert(rows)} ON CONFLICT DO NOTHING`
  })
  const byId = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: DeliveryRecord,
    execute: ({ id, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM deliveries WHERE workspace_id = ${workspaceId} AND id = ${id}`
  })
  const byRequestKey = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, keys: Schema.Array(Schema.String) }),
    Result: DeliveryRecord,
    execute: ({ keys, workspaceId }) =>
      sql`SELECT ${
        sql.unsafe(columns)
      } FROM deliveries WHERE workspace_id = ${workspaceId} AND request_key = ANY(${keys}::text[])`
  })
  // Made for these events and never tried: a hand-over cut off between making and sending them.
  const untried = SqlSchema.findAll({
    Request: Schema.Array(Schema.String),
    Result: DeliveryRecord,
    execute: (eventIds) =>
      sql`SELECT ${sql.unsafe(columns)} FROM deliveries
          WHERE ingest_event_id = ANY(${eventIds}::text[]) AND state = 'PENDING' AND attempt = 0`
  })
  const orphans = SqlSchema.findAll({
    Request: Schema.Struct({ olderThanSeconds: Schema.Number, limit: Schema.Number }),
    Result: Schema.Struct({ id: Schema.String, workspaceId: WorkspaceId, owner: Schema.String }),
    execute: ({ limit, olderThanSeconds }) =>
      sql`SELECT id, workspace_id, owner FROM deliveries
          WHERE state = 'PENDING' AND attempt = 0 AND created_at < now() - make_interval(secs => ${olderThanSeconds})
          ORDER BY created_at LIMIT ${limit}`
  })
  const targets = SqlSchema.findAll({
    Request: Schema.Array(Schema.String),
    Result: HandOverTarget,
    execute: (ids) =>
      sql`SELECT w.id AS workspace_id, w.name, w.webhook_url, w.webhook_secret,
            array_remove(array(
              SELECT DISTINCT email FROM (
                SELECT w.owner_email AS email
                UNION SELECT m.email FROM members m WHERE m.workspace_id = w.id AND m.role IN ('owner', 'operations')
              ) people WHERE email IS NOT NULL ORDER BY email), NULL) AS recipients
          FROM workspaces w WHERE w.id = ANY(${ids}::text[])`
  })
  const traces = SqlSchema.findAll({
    Request: Schema.Array(Schema.String),
    Result: Schema.Struct({ id: Schema.String, traceParent: Schema.NullOr(Schema.String) }),
    execute: (ids) =>
      sql`SELECT d.id, e.trace_parent FROM deliveries d JOIN ingest_events e ON e.id = d.ingest_event_id
          WHERE d.id = ANY(${ids}::text[])`
  })
  const setMessage = SqlSchema.void({
    Request: Schema.Struct({ id: Schema.String, body: Schema.Uint8ArrayFromSelf, headers: Schema.String }),
    execute: ({ body, headers, id }) =>
      sql`UPDATE deliveries SET body = ${body}, headers = ${headers}::jsonb, updated_at = now() WHERE id = ${id} AND body IS NULL`
  })

  // Every attempt of a group in one statement: the counter, the state (a delivered one stays delivered; a failed
  // redelivery leaves the state as it was) and the attempt's row.
  const record = (attempts: ReadonlyArray<AttemptRecord>) =>
    sql`WITH o AS (
          SELECT * FROM unnest(
            ${attempts.map((a) => a.deliveryId)}::text[], ${attempts.map((a) => a.state)}::text[],
            ${attempts.map((a) => a.redelivery)}::boolean[], ${attempts.map((a) => a.startedAt)}::timestamptz[],
            ${attempts.map((a) => a.durationMs)}::int[], ${attempts.map((a) => a.statusCode)}::int[],
            ${attempts.map((a) => a.error)}::text[], ${attempts.map((a) => a.answer)}::text[],
            ${attempts.map((a) => a.nextAttemptAt)}::timestamptz[],
            ${attempts.map((a) => a.headers === null ? null : JSON.stringify(a.headers))}::jsonb[]
          ) AS o(id, state, redelivery, started_at, duration_ms, status_code, error, answer, next_attempt_at, headers)),
        d AS (
          UPDATE deliveries SET attempt = deliveries.attempt + 1,
            state = CASE WHEN deliveries.state = 'DELIVERED' THEN 'DELIVERED'
              WHEN o.redelivery AND o.state <> 'DELIVERED' THEN deliveries.state ELSE o.state END,
            next_attempt_at = CASE WHEN o.state = 'DELIVERED' THEN NULL
              WHEN o.redelivery THEN deliveries.next_attempt_at ELSE o.next_attempt_at END,
            last_status_code = o.status_code, last_error = o.error,
            delivered_at = CASE WHEN o.state = 'DELIVERED' THEN coalesce(deliveries.delivered_at, now()) ELSE deliveries.delivered_at END,
            updated_at = now()
          FROM o WHERE deliveries.id = o.id
          RETURNING deliveries.id, deliveries.attempt)
        INSERT INTO delivery_attempts (delivery_id, attempt, redelivery, started_at, duration_ms, status_code, error, answer,
          headers)
        SELECT d.id, d.attempt, o.redelivery, o.started_at, o.duration_ms, o.status_code, o.error, o.answer, o.headers
        FROM d JOIN o ON o.id = d.id`

  return {
    /** Writes deliveries with the posts each carries (in the caller's transaction). */
    insert: (rows: ReadonlyArray<typeof DeliveryRecord.insert.Type>, posts: ReadonlyArray<DeliveryPost>) =>
      rows.length === 0 ? Effect.void : Effect.orDie(Effect.zipRight(insert(rows), insertPosts(posts))),
    find: (workspaceId: WorkspaceId, id: string) => Effect.orDie(byId({ workspaceId, id })),
    byRequestKeys: (workspaceId: WorkspaceId, keys: ReadonlyArray<string>) =>
      Effect.orDie(byRequestKey({ workspaceId, keys })),
    untriedOf: (eventIds: ReadonlyArray<string>) =>
      eventIds.length === 0 ? Effect.succeed([]) : Effect.orDie(untried(eventIds)),
    /** Across workspaces, for the dispatcher's safety net: made long ago and never tried. */
    orphans: (olderThanSeconds: number, limit: number) => Effect.orDie(orphans({ olderThanSeconds, limit })),
    targets: (workspaceIds: ReadonlyArray<string>) => Effect.orDie(targets(workspaceIds)),
    /** The trace each delivery's event came in with (its attempts continue it). */
    tracesOf: (ids: ReadonlyArray<string>) =>
      Effect.map(Effect.orDie(traces(ids)), (rows) => new Map(rows.map((row) => [row.id, row.traceParent]))),
    /** Stores a composed email once; a message composed already stays as it was. */
    setMessage: (id: string, body: Uint8Array, headers: Record<string, string>) =>
      Effect.orDie(setMessage({ id, body, headers: JSON.stringify(headers) })),
    record: (attempts: ReadonlyArray<AttemptRecord>) =>
      attempts.length === 0 ? Effect.void : Effect.orDie(Effect.asVoid(record(attempts))),
    withTransaction: sql.withTransaction
  }
})

export class DeliveryRepo
  extends Context.Tag("clipwright/delivery/handover/DeliveryRepo")<DeliveryRepo, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(DeliveryRepo, make)
}
