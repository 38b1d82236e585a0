import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A deleted brand keeps its row for history; its name is free again, so uniqueness covers live brands only.
  yield* sql`
    CREATE TABLE brands (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      name text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      style jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    )`
  yield* sql`CREATE UNIQUE INDEX brands_live_name_idx ON brands (workspace_id, lower(name)) WHERE deleted_at IS NULL`
})
