import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // When a sweep that is not about one row (the orphan blob sweep, src/media/OrphanBlobs.ts) last ran: every node
  // looks, the one that moves `swept_at` forward does the work.
  yield* sql`
    CREATE TABLE sweep_claims (
      name text PRIMARY KEY,
      swept_at timestamptz NOT NULL
    )`
})
