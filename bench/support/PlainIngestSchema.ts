import type pg from "pg"

/**
 * The yardstick's tables: `ingest_events` and `jobs` exactly as migrations/0011_ingest.ts creates them (columns,
 * constraints, indexes; copied, not imported, so the yardstick shares no code with clipwright), and parent tables so
 * the foreign keys cost the same checks (`broadcasts` as the migration makes it, the others bare).
 * test/bench/plain-ingest-schema.test.ts holds the copy to the migration.
 */
export const PLAIN_DDL = [
  `CREATE TABLE workspaces (id text PRIMARY KEY)`,
  `CREATE TABLE channels (id text PRIMARY KEY)`,
  `CREATE TABLE broadcasts (
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
  )`,
  `CREATE TABLE ingest_events (
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
  )`,
  `CREATE INDEX ingest_events_log_idx ON ingest_events (workspace_id, received_at DESC, id DESC)`,
  `CREATE INDEX ingest_events_stream_idx ON ingest_events (stream_id, received_at DESC, id DESC)
    WHERE stream_id IS NOT NULL`,
  `CREATE INDEX ingest_events_broadcast_idx ON ingest_events (broadcast_id) WHERE broadcast_id IS NOT NULL`,
  `CREATE TABLE jobs (
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
  )`,
  `CREATE INDEX jobs_log_idx ON jobs (workspace_id, created_at DESC, id DESC)`,
  `CREATE INDEX jobs_event_idx ON jobs (ingest_event_id)`,
  `CREATE INDEX jobs_channel_idx ON jobs (channel_id, created_at DESC)`
]

export const PLAIN_WORKSPACE = "ws_plain"
export const PLAIN_CHANNELS = ["ch_plain_a", "ch_plain_b"] as const

/** Creates the tables and the one workspace and two channels every event lands in. */
export const createPlainSchema = async (client: pg.ClientBase) => {
  for (const statement of PLAIN_DDL) await client.query(statement)
  await client.query("INSERT INTO workspaces (id) VALUES ($1)", [PLAIN_WORKSPACE])
  await client.query("INSERT INTO channels (id) VALUES ($1), ($2)", [...PLAIN_CHANNELS])
}
