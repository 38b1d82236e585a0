import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Due posts are found by time: the hand-over dispatcher claims scheduled jobs whose time came, like the job
  // dispatcher claims waiting ones, and a claim left by a dead node is taken again after a while.
  yield* sql`ALTER TABLE jobs ADD COLUMN handover_claimed_at timestamptz`
  yield* sql`CREATE INDEX jobs_due_idx ON jobs (scheduled_for) WHERE status = 'SCHEDULED'`
  // A repost points at the job it repeats and at the request that made it (so a retried request makes one job).
  yield* sql`ALTER TABLE jobs ADD COLUMN repost_of text, ADD COLUMN repost_request text`
  yield* sql`CREATE UNIQUE INDEX jobs_repost_request_idx ON jobs (repost_of, repost_request) WHERE repost_of IS NOT NULL`
  // One hand-over (webhook call or email) with everything it sends, kept byte for byte: every attempt and every
  // redelivery sends `body` with `headers` unchanged. `owner` is the HandOver entity that holds its timers.
  yield* sql`
    CREATE TABLE deliveries (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      owner text NOT NULL,
      -- A delivery queued by a request (update, delete) is made once per request and way, however often it is retried.
      request_key text UNIQUE,
      via text NOT NULL CHECK (via IN ('webhook', 'email')),
      event text NOT NULL CHECK (event IN ('post.publish', 'post.update', 'post.delete')),
      ingest_event_id text,
      state text NOT NULL CHECK (state IN ('PENDING', 'RETRYING', 'DELIVERED', 'DEAD')),
      attempt integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      last_status_code integer,
      last_error text,
      delivered_at timestamptz,
      body bytea,
      headers jsonb NOT NULL DEFAULT '{}'::jsonb,
      recipients jsonb NOT NULL DEFAULT '[]'::jsonb,
      changes jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX deliveries_log_idx ON deliveries (workspace_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX deliveries_dead_idx ON deliveries (workspace_id) WHERE state = 'DEAD'`
  yield* sql`CREATE INDEX deliveries_open_idx ON deliveries (ingest_event_id) WHERE state IN ('PENDING', 'RETRYING')`
  // The posts a delivery carries, in order. A post is published at most once per way: the guard below makes a
  // second post.publish delivery of one post by one way impossible, whatever a replayed message does.
  yield* sql`
    CREATE TABLE delivery_posts (
      delivery_id text NOT NULL REFERENCES deliveries (id),
      post_id text NOT NULL REFERENCES posts (id),
      position integer NOT NULL,
      via text NOT NULL,
      event text NOT NULL,
      PRIMARY KEY (delivery_id, post_id)
    )`
  yield* sql`CREATE UNIQUE INDEX delivery_posts_publish_once_idx ON delivery_posts (post_id, via) WHERE event = 'post.publish'`
  // Every attempt: when, how long, what came back (a bounded part of the answer).
  yield* sql`
    CREATE TABLE delivery_attempts (
      delivery_id text NOT NULL REFERENCES deliveries (id),
      attempt integer NOT NULL,
      redelivery boolean NOT NULL DEFAULT false,
      started_at timestamptz NOT NULL,
      duration_ms integer NOT NULL,
      status_code integer,
      error text,
      answer text,
      PRIMARY KEY (delivery_id, attempt)
    )`
})
