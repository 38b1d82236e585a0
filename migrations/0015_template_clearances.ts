import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A row only for a workspace the operator restricted; without one, every template is cleared, so a template shipped
  // later reaches every workspace nobody restricted.
  yield* sql`
    CREATE TABLE template_clearances (
      workspace_id text PRIMARY KEY REFERENCES workspaces (id),
      template_ids jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
})
