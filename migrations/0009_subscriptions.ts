import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // `input_key` names the input once for every kind (`feed:<fd_>`, `stream:<st_>`, `queue:<id>`), so one unique index
  // refuses the same input twice on a channel.
  yield* sql`
    CREATE TABLE channel_subscriptions (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      channel_id text NOT NULL REFERENCES channels (id),
      kind text NOT NULL,
      input_key text NOT NULL,
      source_slug text,
      format_slug text,
      feed_id text,
      stream_id text,
      queue_id text,
      template_id text,
      template_variant text,
      template_version text,
      enabled boolean NOT NULL DEFAULT true,
      create_request_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE UNIQUE INDEX channel_subscriptions_input_idx ON channel_subscriptions (channel_id, input_key)`
  yield* sql`CREATE INDEX channel_subscriptions_stream_idx ON channel_subscriptions (workspace_id, stream_id)`
  // Only a workspace's switch that differs from on is worth a row, but a row is kept once written.
  yield* sql`
    CREATE TABLE feed_switches (
      workspace_id text NOT NULL REFERENCES workspaces (id),
      feed_id text NOT NULL,
      enabled boolean NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (workspace_id, feed_id)
    )`
})
