import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE render_jobs (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      origin text NOT NULL,
      details text NOT NULL DEFAULT '',
      post_title text,
      template_id text NOT NULL,
      template_name text NOT NULL,
      template_variant text NOT NULL,
      template_version text NOT NULL,
      state text NOT NULL DEFAULT 'PENDING',
      priority integer NOT NULL DEFAULT 0,
      outputs_requested integer NOT NULL,
      outputs_succeeded integer NOT NULL DEFAULT 0,
      progress double precision NOT NULL DEFAULT 0,
      attempt integer NOT NULL DEFAULT 0,
      error text,
      package jsonb NOT NULL,
      submitted_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz
    )`
  yield* sql`CREATE INDEX render_jobs_workspace_idx ON render_jobs (workspace_id, submitted_at DESC)`
  yield* sql`CREATE INDEX render_jobs_waiting_idx ON render_jobs (submitted_at) WHERE state IN ('PENDING', 'SUBMITTED')`
  yield* sql`
    CREATE TABLE render_outputs (
      render_job_id text NOT NULL REFERENCES render_jobs (id),
      ratio text NOT NULL,
      locale text NOT NULL,
      state text NOT NULL DEFAULT 'pending',
      progress double precision NOT NULL DEFAULT 0,
      error text,
      clip_id text,
      PRIMARY KEY (render_job_id, ratio, locale)
    )`
  yield* sql`
    CREATE TABLE clips (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      render_job_id text NOT NULL REFERENCES render_jobs (id),
      ratio text NOT NULL,
      locale text NOT NULL,
      width integer NOT NULL,
      height integer NOT NULL,
      duration_ms integer NOT NULL,
      byte_size bigint NOT NULL,
      sha256 text NOT NULL,
      blob_key text NOT NULL,
      stored boolean NOT NULL DEFAULT true,
      kept boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz
    )`
  yield* sql`CREATE INDEX clips_workspace_idx ON clips (workspace_id, created_at)`
  // One row per render job: reserved on submit, committed when its video finishes, released on failure.
  yield* sql`
    CREATE TABLE allowance_reservations (
      render_job_id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      videos integer NOT NULL,
      state text NOT NULL CHECK (state IN ('reserved', 'committed', 'released')),
      period_start timestamptz NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX allowance_workspace_idx ON allowance_reservations (workspace_id, period_start, state)`
  yield* sql`
    CREATE TABLE exports (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      render_job_id text NOT NULL REFERENCES render_jobs (id),
      template_id text NOT NULL,
      template_name text NOT NULL,
      variant text NOT NULL,
      version text NOT NULL,
      brand_id text,
      brand_name text,
      ratio text NOT NULL,
      locale text NOT NULL,
      data jsonb NOT NULL,
      title text,
      status text NOT NULL DEFAULT 'queued',
      error text,
      kept boolean NOT NULL DEFAULT false,
      kept_note text,
      clip_id text,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      discarded_at timestamptz
    )`
  yield* sql`CREATE INDEX exports_workspace_idx ON exports (workspace_id, created_at DESC)`
  // The share of the storage allowance the media library may use; rendered clips get the rest.
  yield* sql`ALTER TABLE workspaces ADD COLUMN media_share_percent integer NOT NULL DEFAULT 50`
  // Render capacity each live node offers; the allowance supervisor reads it to decide 503 vs queueing.
  yield* sql`
    CREATE TABLE render_capacity (
      node_id text PRIMARY KEY,
      slots integer NOT NULL,
      heartbeat_at timestamptz NOT NULL DEFAULT now()
    )`
})
