import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Deprecated store (SPEC Versioning 1): platform credential fields per channel, kept as given and never read by
  // the service itself.
  yield* sql`
    CREATE TABLE channel_credentials (
      workspace_id text NOT NULL REFERENCES workspaces (id),
      channel_id text NOT NULL REFERENCES channels (id),
      key text NOT NULL,
      label text,
      value text NOT NULL,
      secret boolean NOT NULL,
      position integer NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (channel_id, key)
    )`
  yield* sql`CREATE INDEX channel_credentials_workspace_idx ON channel_credentials (workspace_id)`
  // Each workspace's mirror of the template registry as of its last POST /v1/templates/sync; no rows until then.
  yield* sql`
    CREATE TABLE template_syncs (
      workspace_id text NOT NULL REFERENCES workspaces (id),
      template_id text NOT NULL,
      descriptor_sha text NOT NULL,
      offered boolean NOT NULL,
      synced_at timestamptz NOT NULL,
      PRIMARY KEY (workspace_id, template_id)
    )`
})
