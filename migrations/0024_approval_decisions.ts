import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Who decided (`user:<email>` or `apikey:<id>`), and when an approval-request email first listed the approval.
  yield* sql`ALTER TABLE approvals ADD COLUMN decided_by text, ADD COLUMN announced_at timestamptz`
  yield* sql`CREATE INDEX approvals_unannounced_idx ON approvals (workspace_id) WHERE state = 'PENDING' AND announced_at IS NULL`
  // The console lists a state (and a channel) newest first without reading the whole log.
  yield* sql`CREATE INDEX approvals_state_idx ON approvals (workspace_id, state, requested_at DESC, id DESC)`
  yield* sql`CREATE INDEX approvals_channel_idx ON approvals (workspace_id, channel_id, requested_at DESC, id DESC)`
  // The console's home counts and lists a workspace's failed jobs of the last days.
  yield* sql`CREATE INDEX jobs_failed_idx ON jobs (workspace_id, updated_at DESC)
    WHERE status IN ('RENDER_FAILED', 'POST_FAILED', 'DELETE_FAILED', 'UPDATE_FAILED')`
  // When each workspace's people were last sent approval requests: at most one email per 5 minutes, held here so it
  // survives restarts and holds across nodes (a row lock decides which node sends).
  yield* sql`
    CREATE TABLE approval_request_mails (
      workspace_id text PRIMARY KEY REFERENCES workspaces (id),
      sent_at timestamptz NOT NULL
    )`
})
