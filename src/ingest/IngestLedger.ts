import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { UpstreamUnavailable } from "../domain/Errors.js"
import { WorkspaceId } from "../domain/Principal.js"
import { JobRecord } from "../jobs/JobRecord.js"
import { groupCommit } from "../sql/GroupCommit.js"
import { IngestEventRecord } from "./IngestEventRecord.js"

/** An event to land: its row and, when it is accepted, one job per channel it reaches. */
export interface Landing {
  readonly event: typeof IngestEventRecord.insert.Type
  readonly jobs: ReadonlyArray<typeof JobRecord.insert.Type>
}

/** The event landed now (with its jobs), or its eventId had landed before: the earlier row stands. */
export type Landed =
  | { readonly _tag: "Landed" }
  | { readonly _tag: "Earlier"; readonly row: IngestEventRecord }

const EventKey = Schema.Struct({ workspaceId: WorkspaceId, eventId: Schema.String })

/**
 * The hot path's only write: an event's row and its jobs in one transaction, committed before the sender hears
 * 202, so no crash after the answer loses or doubles anything. Concurrent events share that transaction (group
 * commit), so a busy node pays one commit per group, not per event. An eventId already present (in this group or
 * committed by any node) keeps its first row: the unique index decides, and the loser reads the winner.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const insertEvents = SqlSchema.findAll({
    Request: Schema.Array(IngestEventRecord.insert),
    Result: Schema.Struct({ id: Schema.String }),
    execute: (rows) =>
      sql`INSERT INTO ingest_events ${sql.insert(rows)} ON CONFLICT (workspace_id, event_id) DO NOTHING RETURNING id`
  })
  const insertJobs = SqlSchema.void({
    Request: Schema.Array(JobRecord.insert),
    execute: (rows) => sql`INSERT INTO jobs ${sql.insert(rows)}`
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

  const landAll = (items: ReadonlyArray<Landing>) =>
    sql.withTransaction(Effect.gen(function*() {
      const won = new Set((yield* insertEvents(items.map((item) => item.event))).map((row) => row.id))
      const jobs = items.filter((item) => won.has(item.event.id)).flatMap((item) => item.jobs)
      if (jobs.length > 0) yield* insertJobs(jobs)
      const lost = items.filter((item) => !won.has(item.event.id)).map((item) => item.event)
      const rows = lost.length === 0 ? [] : yield* earlier(lost)
      const byKey = new Map(rows.map((row) => [`${row.workspaceId} ${row.eventId}`, row]))
      return items.map((item): Landed => {
        if (won.has(item.event.id)) return { _tag: "Landed" }
        const row = byKey.get(`${item.event.workspaceId} ${item.event.eventId}`)
        if (row === undefined) throw new Error("ingest ledger: an event neither landed nor found")
        return { _tag: "Earlier", row }
      })
    }))

  const land = yield* groupCommit({
    maxGroup: 250,
    span: { name: "sql.execute", attributes: { "db.system.name": "postgresql", "db.operation.name": "INSERT ingest_events, jobs" } },
    many: (items: ReadonlyArray<Landing>) =>
      landAll(items).pipe(
        Effect.tapErrorCause((cause) => Effect.logError("ingest ledger: the write failed", cause)),
        Effect.mapError(() => new UpstreamUnavailable({ message: "The event could not be stored; retry it.", retryAfterSeconds: 1 }))
      )
  })
  return { land }
})

export class IngestLedger extends Context.Tag("clipwright/ingest/IngestLedger")<
  IngestLedger,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.scoped(IngestLedger, make)
}
