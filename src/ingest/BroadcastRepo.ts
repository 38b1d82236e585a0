import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { BroadcastCopy, BroadcastRecord } from "./BroadcastRecord.js"

/** The platform's broadcasts. Not workspace data: a broadcast spans workspaces, and only platform keys read it. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const insert = SqlSchema.findAll({
    Request: BroadcastRecord.insert,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (row) => sql`INSERT INTO broadcasts ${sql.insert(row)} ON CONFLICT (event_id) DO NOTHING RETURNING id`
  })
  const byEventId = SqlSchema.findOne({
    Request: Schema.String,
    Result: BroadcastRecord,
    execute: (eventId) => sql`SELECT * FROM broadcasts WHERE event_id = ${eventId}`
  })
  const byId = SqlSchema.findOne({
    Request: Schema.String,
    Result: BroadcastRecord,
    execute: (id) => sql`SELECT * FROM broadcasts WHERE id = ${id}`
  })
  const page = SqlSchema.findAll({
    Request: Schema.Struct({ limit: Schema.Number, offset: Schema.Number }),
    Result: BroadcastRecord,
    execute: ({ limit, offset }) =>
      sql`SELECT * FROM broadcasts ORDER BY received_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
  })
  const count = SqlSchema.single({
    Request: Schema.Void,
    Result: Schema.Struct({ n: Schema.Number }),
    execute: () => sql`SELECT count(*)::int AS n FROM broadcasts`
  })
  const copies = SqlSchema.findAll({
    Request: Schema.String,
    Result: BroadcastCopy,
    execute: (id) =>
      sql`SELECT e.workspace_id, e.id AS ingest_event_id, e.status,
            (SELECT count(*) FROM jobs j WHERE j.ingest_event_id = e.id)::int AS jobs
          FROM ingest_events e WHERE e.broadcast_id = ${id} ORDER BY e.workspace_id`
  })
  return {
    /** False when a broadcast with that eventId exists already. */
    insert: (row: typeof BroadcastRecord.insert.Type) =>
      Effect.map(Effect.orDie(insert(row)), (rows) => rows.length > 0),
    findByEventId: (eventId: string) => Effect.orDie(byEventId(eventId)),
    find: (id: string) => Effect.orDie(byId(id)),
    page: (limit: number, offset: number) => Effect.orDie(page({ limit, offset })),
    count: Effect.map(Effect.orDie(count(undefined)), (row) => row.n),
    /** Each workspace's event made of the broadcast (across workspaces: the broadcast is the platform's). */
    copiesOf: (id: string) => Effect.orDie(copies(id))
  }
})

export class BroadcastRepo extends Context.Tag("clipwright/ingest/BroadcastRepo")<
  BroadcastRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(BroadcastRepo, make)
}
