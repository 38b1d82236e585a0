import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The trace of the request that brought an event in: its jobs' starts and its hand-over continue it.
  yield* sql`ALTER TABLE ingest_events ADD COLUMN trace_parent text`
})
