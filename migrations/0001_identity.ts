import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE workspaces (
      id text PRIMARY KEY,
      name text NOT NULL,
      owner_email text,
      render_allowance integer NOT NULL DEFAULT 500,
      storage_mb integer NOT NULL DEFAULT 1024,
      seats integer,
      limits_overridden boolean NOT NULL DEFAULT false,
      webhook_url text,
      webhook_secret text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      workspace_id text REFERENCES workspaces (id),
      kind text NOT NULL CHECK (kind IN ('apikey', 'platform')),
      name text,
      key_hash text NOT NULL UNIQUE,
      scopes jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`
  yield* sql`
    CREATE TABLE members (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'operations', 'member')),
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (workspace_id, email)
    )`
})
