import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Only deviations from the catalogue's defaults are stored, so a source shipped later as included by default
  // reaches every workspace the operator has not said otherwise about.
  yield* sql`
    CREATE TABLE feed_entitlements (
      workspace_id text NOT NULL REFERENCES workspaces (id),
      source_slug text NOT NULL,
      entitled boolean NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (workspace_id, source_slug)
    )`
})
