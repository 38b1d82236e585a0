import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Secrets every node sharing the database signs with (signed download URLs); a row is written once, never changed.
  yield* sql`
    CREATE TABLE signing_keys (
      id text PRIMARY KEY,
      secret text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
})
