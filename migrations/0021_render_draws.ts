import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Any node with a free slot draws the next render in the fair order, wherever its runner lives: `in_line_at` says a
  // runner waits for the render (so its end will be announced), `drawn_by` which node's slot draws it (so a dead
  // node's renders go back in line, and a live one's are left alone).
  yield* sql`ALTER TABLE render_jobs ADD COLUMN in_line_at timestamptz, ADD COLUMN drawn_by text`
})
