import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The post list a fired post came from, so the logs can name it as it stands now ('<name> (removed)' once deleted),
  // as they name a stream. Older rows keep the name stored when they landed.
  yield* sql`ALTER TABLE ingest_events ADD COLUMN queue_id text`
})
