import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Render once: outputs with the same build, content, brand look, ratio and locale are the same video, found by
  // this key within the workspace.
  yield* sql`ALTER TABLE render_jobs ADD COLUMN content_key text`
  yield* sql`CREATE INDEX render_jobs_content_idx ON render_jobs (workspace_id, content_key) WHERE content_key IS NOT NULL`
  // A job's life after ACCEPTED: its render, its error, and when the dispatcher last handed it to its channel.
  yield* sql`
    ALTER TABLE jobs
      ADD COLUMN render_job_id text,
      ADD COLUMN error text,
      ADD COLUMN dispatched_at timestamptz,
      ADD COLUMN finished_at timestamptz`
  yield* sql`CREATE INDEX jobs_render_idx ON jobs (render_job_id) WHERE render_job_id IS NOT NULL`
  yield* sql`CREATE INDEX jobs_waiting_idx ON jobs (created_at) WHERE status = 'ACCEPTED'`
  // One post per job (its channel's platform, surface, language and shape), written when its video is ready.
  yield* sql`
    CREATE TABLE posts (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      job_id text NOT NULL UNIQUE REFERENCES jobs (id),
      channel_id text NOT NULL REFERENCES channels (id),
      render_job_id text,
      platform text NOT NULL,
      surface text NOT NULL,
      locale text NOT NULL,
      ratio text NOT NULL,
      state text NOT NULL,
      title text NOT NULL,
      caption text NOT NULL,
      hashtags jsonb NOT NULL DEFAULT '[]'::jsonb,
      scheduled_for timestamptz NOT NULL,
      published_at timestamptz,
      platform_post_id text,
      permalink text,
      failure_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX posts_log_idx ON posts (workspace_id, created_at DESC, id DESC)`
  // A PER_POST channel's job waits on one approval for its post.
  yield* sql`
    CREATE TABLE approvals (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      job_id text NOT NULL UNIQUE REFERENCES jobs (id),
      channel_id text NOT NULL REFERENCES channels (id),
      state text NOT NULL,
      note text,
      requested_at timestamptz NOT NULL DEFAULT now(),
      decided_at timestamptz
    )`
  yield* sql`CREATE INDEX approvals_log_idx ON approvals (workspace_id, requested_at DESC, id DESC)`
})
