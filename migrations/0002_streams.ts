import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A deleted stream keeps its row (and so its id) for history; ids are global across workspaces.
  yield* sql`
    CREATE TABLE streams (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      enabled boolean NOT NULL DEFAULT true,
      template_id text NOT NULL,
      field_map jsonb NOT NULL DEFAULT '{}'::jsonb,
      last_received_at timestamptz,
      last_sample jsonb,
      create_request_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    )`
  yield* sql`CREATE INDEX streams_workspace_idx ON streams (workspace_id) WHERE deleted_at IS NULL`
})
