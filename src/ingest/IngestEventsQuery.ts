import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { Origin } from "../domain/Origin.js"
import { WorkspaceId } from "../domain/Principal.js"
import { JobRecord } from "../publishing/states/JobRecord.js"
import { eventDetails } from "../sql/SourceNames.js"
import { IngestEventRecord, IngestStatus } from "./IngestEventRecord.js"

const event = IngestEventRecord.fields

/** An event as the log lists it: the printed columns and how many jobs it produced. */
export const ListedEvent = Schema.Struct({
  id: event.id,
  origin: event.origin,
  details: event.details,
  postTitle: event.postTitle,
  eventId: event.eventId,
  status: event.status,
  occurredAt: event.occurredAt,
  receivedAt: event.receivedAt,
  input: event.input,
  streamId: event.streamId,
  feedId: event.feedId,
  jobs: Schema.Number
})
export type ListedEvent = typeof ListedEvent.Type

/** One event whole, with what the log prints for its input now (a removed stream's name ends in ' (removed)'). */
export const FoundEvent = Schema.Struct({ ...IngestEventRecord.fields, printedDetails: Schema.String })
export type FoundEvent = typeof FoundEvent.Type

/** A job of one event, with the name its channel has now (a deleted channel keeps its row). */
export const EventJob = Schema.Struct({ ...JobRecord.fields, channelName: Schema.String })
export type EventJob = typeof EventJob.Type

/** The log's filters; `q` is free text, matched as a substring. */
export interface EventFilter {
  readonly status?: IngestStatus | undefined
  readonly origin?: Origin | undefined
  readonly q?: string | undefined
}

const Filter = {
  workspaceId: WorkspaceId,
  status: Schema.optional(IngestStatus),
  origin: Schema.optional(Origin),
  q: Schema.optional(Schema.String)
}

/** `q` is the caller's text, not a pattern: its `%`, `_` and `\` match themselves. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, "\\$&")}%`

/** Tenant-scoped reads of the ingest log (`GET /v1/ingest-events`), over `ingest_events_log_idx`. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const details = eventDetails(sql, "e")

  const searched = (q: string | undefined) => {
    if (q === undefined) return []
    const pattern = likePattern(q)
    return [sql`(${details} ILIKE ${pattern} OR e.post_title ILIKE ${pattern}
      OR e.event_id ILIKE ${pattern} OR e.id ILIKE ${pattern})`]
  }

  const page = SqlSchema.findAll({
    Request: Schema.Struct({ ...Filter, limit: Schema.Number, offset: Schema.Number }),
    Result: ListedEvent,
    execute: (r) => {
      const where = [
        sql`e.workspace_id = ${r.workspaceId}`,
        ...(r.status === undefined ? [] : [sql`e.status = ${r.status}`]),
        ...(r.origin === undefined ? [] : [sql`e.origin = ${r.origin}`]),
        ...searched(r.q)
      ]
      return sql`SELECT e.id, e.origin, ${details} AS details, e.post_title, e.event_id, e.status, e.occurred_at,
            e.received_at, e.input, e.stream_id, e.feed_id,
            (SELECT count(*) FROM jobs j WHERE j.ingest_event_id = e.id)::int AS jobs
          FROM ingest_events e
          WHERE ${sql.and(where)}
          ORDER BY e.received_at DESC, e.id DESC LIMIT ${r.limit} OFFSET ${r.offset}`
    }
  })

  const counts = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, q: Schema.optional(Schema.String) }),
    Result: Schema.Struct({ status: IngestStatus, origin: Origin, n: Schema.Number }),
    execute: (r) =>
      sql`SELECT e.status, e.origin, count(*)::int AS n FROM ingest_events e
          WHERE ${sql.and([sql`e.workspace_id = ${r.workspaceId}`, ...searched(r.q)])}
          GROUP BY e.status, e.origin`
  })

  const everything = SqlSchema.single({
    Request: WorkspaceId,
    Result: Schema.Struct({ n: Schema.Number }),
    execute: (workspaceId) => sql`SELECT count(*)::int AS n FROM ingest_events WHERE workspace_id = ${workspaceId}`
  })

  const one = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: FoundEvent,
    execute: ({ id, workspaceId }) =>
      sql`SELECT e.*, ${details} AS printed_details FROM ingest_events e
          WHERE e.id = ${id} AND e.workspace_id = ${workspaceId}`
  })

  const jobsOf = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, eventId: Schema.String }),
    Result: EventJob,
    execute: ({ eventId, workspaceId }) =>
      sql`SELECT j.*, c.name AS channel_name FROM jobs j JOIN channels c ON c.id = j.channel_id
          WHERE j.ingest_event_id = ${eventId} AND j.workspace_id = ${workspaceId}
          ORDER BY c.created_at, c.id, j.created_at, j.id`
  })

  return {
    /** Newest first, matching every filter given. */
    page: (workspaceId: WorkspaceId, filter: EventFilter, limit: number, offset: number) =>
      Effect.orDie(page({ workspaceId, ...filter, limit, offset })),
    /** Events per status and origin among those matching `q` (all of them without it). */
    counts: (workspaceId: WorkspaceId, q: string | undefined) => Effect.orDie(counts({ workspaceId, q })),
    /** Every event of the workspace. */
    countAll: (workspaceId: WorkspaceId) => Effect.map(Effect.orDie(everything(workspaceId)), (row) => row.n),
    /** One event of the workspace; another workspace's id is not found. */
    find: (workspaceId: WorkspaceId, id: string) => Effect.orDie(one({ workspaceId, id })),
    /** The event's jobs, in the order their channels were created. */
    jobsOf: (workspaceId: WorkspaceId, eventId: string) => Effect.orDie(jobsOf({ workspaceId, eventId }))
  }
})

export class IngestEventsQuery extends Context.Tag("clipwright/ingest/IngestEventsQuery")<
  IngestEventsQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(IngestEventsQuery, make)
}
