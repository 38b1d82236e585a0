import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Each automatic webhook attempt is signed as it is sent: the log keeps the headers each attempt went out with.
  yield* sql`ALTER TABLE delivery_attempts ADD COLUMN headers jsonb`
})
