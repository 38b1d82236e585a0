import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Extra renders the owner buys on top of the monthly allowance (`/v1/renders/buy|keep|drop`), per workspace and
 * period, up to a ceiling the operator sets (`admin limits set --extra-ceiling`; 0, the default, allows none).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE workspaces ADD COLUMN extra_ceiling integer NOT NULL DEFAULT 0`
  yield* sql`
    CREATE TABLE render_extras (
      workspace_id text NOT NULL REFERENCES workspaces (id),
      period_start timestamptz NOT NULL,
      extra integer NOT NULL CHECK (extra >= 0),
      PRIMARY KEY (workspace_id, period_start)
    )`
})
