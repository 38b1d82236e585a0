import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // What a stream received is read from its ingest log (newest row), not kept on the stream: the stream's entity
  // stays the only writer of its row, and the hot path writes nothing but the event and its jobs.
  yield* sql`ALTER TABLE streams DROP COLUMN last_received_at, DROP COLUMN last_sample`
  // The platform's broadcasts: one feed event carried to every workspace with the feed on and a channel listening.
  yield* sql`
    CREATE TABLE broadcasts (
      id text PRIMARY KEY,
      event_id text NOT NULL UNIQUE,
      body_hash text NOT NULL,
      key_id text NOT NULL,
      source_slug text NOT NULL,
      format_slug text NOT NULL,
      feed_id text NOT NULL,
      status text NOT NULL,
      occurred_at timestamptz NOT NULL,
      locale text,
      data jsonb NOT NULL,
      workspaces integer NOT NULL,
      request_id text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX broadcasts_received_idx ON broadcasts (received_at DESC, id DESC)`
  // One row per event a workspace received, whatever became of it; `event_id` is the workspace's idempotency key and
  // `body_hash` tells a repeat (200/202 duplicate) from another body under the same key (409).
  yield* sql`
    CREATE TABLE ingest_events (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      event_id text NOT NULL,
      body_hash text NOT NULL,
      input text NOT NULL,
      origin text NOT NULL,
      stream_id text,
      feed_id text,
      broadcast_id text REFERENCES broadcasts (id),
      details text NOT NULL,
      post_title text,
      status text NOT NULL,
      occurred_at timestamptz NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      locale text,
      data jsonb NOT NULL,
      normalized jsonb,
      mapping_errors jsonb,
      warnings jsonb NOT NULL DEFAULT '[]'::jsonb,
      publish_at timestamptz,
      timezone text,
      request_id text NOT NULL,
      UNIQUE (workspace_id, event_id)
    )`
  yield* sql`CREATE INDEX ingest_events_log_idx ON ingest_events (workspace_id, received_at DESC, id DESC)`
  yield* sql`CREATE INDEX ingest_events_stream_idx ON ingest_events (stream_id, received_at DESC, id DESC)
             WHERE stream_id IS NOT NULL`
  yield* sql`CREATE INDEX ingest_events_broadcast_idx ON ingest_events (broadcast_id) WHERE broadcast_id IS NOT NULL`
  // A job: one event on one channel (its post group). Written with the event, ACCEPTED, before the sender hears 202;
  // the pipeline moves it on from there.
  yield* sql`
    CREATE TABLE jobs (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      ingest_event_id text NOT NULL REFERENCES ingest_events (id),
      channel_id text NOT NULL REFERENCES channels (id),
      subscription_id text NOT NULL,
      origin text NOT NULL,
      status text NOT NULL,
      template_id text NOT NULL,
      template_variant text,
      template_version text,
      ratio text NOT NULL,
      locale text NOT NULL,
      scheduled_for timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX jobs_log_idx ON jobs (workspace_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX jobs_event_idx ON jobs (ingest_event_id)`
  yield* sql`CREATE INDEX jobs_channel_idx ON jobs (channel_id, created_at DESC)`
})
