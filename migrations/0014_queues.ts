import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A post list. A deleted one keeps its row (its name free again) so a retried delete finds what the first one did.
  yield* sql`
    CREATE TABLE queues (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      name text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      create_request_id text NOT NULL,
      delete_request_id text,
      removed_from_channels integer,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    )`
  yield* sql`CREATE UNIQUE INDEX queues_live_name_idx ON queues (workspace_id, name) WHERE deleted_at IS NULL`
  yield* sql`CREATE INDEX queues_workspace_idx ON queues (workspace_id, created_at) WHERE deleted_at IS NULL`
  // A scheduled post. `armed` counts the timers set for it: each new timer (a new time, the list enabled again) has
  // a new key, and a timer whose count is not the stored one does nothing. `armed_by` is the request that last armed
  // it, so a re-run of that request sends the same timers again instead of new ones.
  yield* sql`
    CREATE TABLE queue_packages (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      queue_id text NOT NULL REFERENCES queues (id),
      title text NOT NULL,
      template_id text NOT NULL,
      template_variant text NOT NULL,
      template_version text,
      data jsonb NOT NULL,
      scheduled_for timestamptz NOT NULL,
      state text NOT NULL CHECK (state IN ('SCHEDULED', 'FIRED', 'CANCELLED')),
      armed integer NOT NULL DEFAULT 0,
      armed_by text,
      fired_at timestamptz,
      ingest_event_id text REFERENCES ingest_events (id),
      error text,
      create_request_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX queue_packages_queue_idx ON queue_packages (queue_id, scheduled_for, id)`
  // What holds a media file: scheduled posts are searched per workspace.
  yield* sql`CREATE INDEX queue_packages_scheduled_idx ON queue_packages (workspace_id) WHERE state = 'SCHEDULED'`
  yield* sql`CREATE INDEX channel_subscriptions_queue_idx ON channel_subscriptions (queue_id) WHERE queue_id IS NOT NULL`
})
