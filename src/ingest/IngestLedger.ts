import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { UpstreamUnavailable } from "../domain/Errors.js"
import { WorkspaceId } from "../domain/Principal.js"
import { currentTraceparent } from "../domain/TraceParent.js"
import { countAccepted } from "../observability/Metrics.js"
import { JobDispatcher } from "../publishing/states/JobDispatcher.js"
import { JobRecord } from "../publishing/states/JobRecord.js"
import { groupCommit } from "../sql/GroupCommit.js"
import { IngestEventRecord } from "./IngestEventRecord.js"

/** An event to land: its row and, when it is accepted, one job per channel it reaches. */
export interface Landing {
  readonly event: typeof IngestEventRecord.insert.Type
  readonly jobs: ReadonlyArray<typeof JobRecord.insert.Type>
}

type Traced = Landing & { readonly traceParent: string | null }

/** The event landed now (with its jobs), or its eventId had landed before: the earlier row stands. */
export type Landed =
  | { readonly _tag: "Landed" }
  | { readonly _tag: "Earlier"; readonly row: IngestEventRecord }

const EventKey = Schema.Struct({ workspaceId: WorkspaceId, eventId: Schema.String })

type Column<R> = readonly [name: string, type: string, value: (row: R) => unknown]
type EventRow = typeof IngestEventRecord.insert.Encoded
type JobRow = typeof JobRecord.insert.Encoded

const eventColumns: ReadonlyArray<Column<EventRow>> = [
  ["id", "text", (r) => r.id],
  ["workspace_id", "text", (r) => r.workspaceId],
  ["event_id", "text", (r) => r.eventId],
  ["body_hash", "text", (r) => r.bodyHash],
  ["input", "text", (r) => r.input],
  ["origin", "text", (r) => r.origin],
  ["stream_id", "text", (r) => r.streamId],
  ["feed_id", "text", (r) => r.feedId],
  ["broadcast_id", "text", (r) => r.broadcastId],
  ["queue_id", "text", (r) => r.queueId],
  ["details", "text", (r) => r.details],
  ["post_title", "text", (r) => r.postTitle],
  ["status", "text", (r) => r.status],
  ["occurred_at", "timestamptz", (r) => r.occurredAt],
  ["locale", "text", (r) => r.locale],
  ["data", "jsonb", (r) => r.data],
  ["normalized", "jsonb", (r) => r.normalized],
  ["mapping_errors", "jsonb", (r) => r.mappingErrors],
  ["warnings", "jsonb", (r) => r.warnings],
  ["publish_at", "timestamptz", (r) => r.publishAt],
  ["timezone", "text", (r) => r.timezone],
  ["request_id", "text", (r) => r.requestId]
]

const jobColumns: ReadonlyArray<Column<JobRow>> = [
  ["id", "text", (r) => r.id],
  ["workspace_id", "text", (r) => r.workspaceId],
  ["ingest_event_id", "text", (r) => r.ingestEventId],
  ["channel_id", "text", (r) => r.channelId],
  ["subscription_id", "text", (r) => r.subscriptionId],
  ["origin", "text", (r) => r.origin],
  ["status", "text", (r) => r.status],
  ["template_id", "text", (r) => r.templateId],
  ["template_variant", "text", (r) => r.templateVariant],
  ["template_version", "text", (r) => r.templateVersion],
  ["ratio", "text", (r) => r.ratio],
  ["locale", "text", (r) => r.locale],
  ["scheduled_for", "timestamptz", (r) => r.scheduledFor]
]

const names = <R>(columns: ReadonlyArray<Column<R>>) => columns.map(([name]) => name).join(", ")

/**
 * The hot path's only write: events' rows and their jobs in ONE statement (an insert of the events whose ids feed
 * the insert of their jobs), so a group of events costs one round trip and one commit, and an event's row never
 * stands without its jobs. Concurrent events share that statement (group commit). An eventId already present (in
 * this group or committed by any node) keeps its first row: the unique index decides, and the loser reads the winner.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const dispatcher = yield* JobDispatcher
  // Column arrays rather than a VALUES list: the statement's text is the same for every group size.
  const unnest = <R>(columns: ReadonlyArray<Column<R>>, rows: ReadonlyArray<R>) =>
    sql.csv(columns.map(([, type, value]) => {
      const values = rows.map(value)
      // jsonb travels as text (node-postgres would send a JavaScript array as a PostgreSQL array).
      return type === "jsonb" ? sql`${values}::text[]::jsonb[]` : sql`${values}::${sql.literal(type)}[]`
    }))
  const landMany = SqlSchema.findAll({
    Request: Schema.Struct({
      events: Schema.Array(IngestEventRecord.insert),
      traces: Schema.Array(Schema.NullOr(Schema.String)),
      jobs: Schema.Array(JobRecord.insert)
    }),
    Result: Schema.Struct({ id: Schema.String }),
    execute: ({ events, jobs, traces }) =>
      sql`WITH landed AS (
            INSERT INTO ingest_events (${sql.literal(names(eventColumns))}, trace_parent)
            SELECT * FROM unnest(${unnest(eventColumns, events)}, ${traces}::text[])
            ON CONFLICT (workspace_id, event_id) DO NOTHING
            RETURNING id
          ), jobs AS (
            INSERT INTO jobs (${sql.literal(names(jobColumns))})
            SELECT * FROM unnest(${unnest(jobColumns, jobs)}) AS j(${sql.literal(names(jobColumns))})
            WHERE j.ingest_event_id IN (SELECT id FROM landed)
            RETURNING 1
          )
          SELECT id FROM landed`
  })
  const earlier = SqlSchema.findAll({
    Request: Schema.Array(EventKey),
    Result: IngestEventRecord,
    execute: (keys) =>
      sql`SELECT e.* FROM ingest_events e
          JOIN unnest(${keys.map((k) => k.workspaceId)}::text[], ${keys.map((k) => k.eventId)}::text[])
            AS k(workspace_id, event_id)
          ON e.workspace_id = k.workspace_id AND e.event_id = k.event_id`
  })

  const landAll = Effect.fnUntraced(function*(items: ReadonlyArray<Traced>) {
    const jobs = items.flatMap((item) => item.jobs)
    const rows = yield* landMany({
      events: items.map((item) => item.event),
      traces: items.map((item) => item.traceParent),
      jobs
    })
    // The jobs are durable now; this node's dispatcher hands them to their channels without waiting for its next look.
    if (jobs.length > 0) yield* dispatcher.wake
    const won = new Set(rows.map((row) => row.id))
    yield* countAccepted(items.map((item) => item.event).filter((event) => won.has(event.id)))
    const lost = items.filter((item) => !won.has(item.event.id)).map((item) => item.event)
    const found = lost.length === 0 ? [] : yield* earlier(lost)
    const byKey = new Map(found.map((row) => [`${row.workspaceId} ${row.eventId}`, row]))
    return items.map((item): Landed => {
      if (won.has(item.event.id)) return { _tag: "Landed" }
      const row = byKey.get(`${item.event.workspaceId} ${item.event.eventId}`)
      if (row === undefined) throw new Error("ingest ledger: an event neither landed nor found")
      return { _tag: "Earlier", row }
    })
  })

  const landTraced = yield* groupCommit({
    maxGroup: 250,
    span: {
      name: "sql.execute",
      attributes: { "db.system.name": "postgresql", "db.operation.name": "INSERT ingest_events, jobs" }
    },
    many: (items: ReadonlyArray<Traced>) =>
      landAll(items).pipe(
        Effect.tapErrorCause((cause) => Effect.logError("ingest ledger: the write failed", cause)),
        Effect.mapError(() =>
          new UpstreamUnavailable({ message: "The event could not be stored; retry it.", retryAfterSeconds: 1 })
        )
      )
  })
  // The event keeps the trace of the request that brought it, for its jobs and hand-over to continue.
  const land = (item: Landing) =>
    Effect.flatMap(currentTraceparent, (traceParent) => landTraced({ ...item, traceParent }))
  return { land }
})

export class IngestLedger extends Context.Tag("clipwright/ingest/IngestLedger")<
  IngestLedger,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.scoped(IngestLedger, make)
}
