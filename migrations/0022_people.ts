import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * People sign in (CONTRACT "The console: people sign in"): one-use email links and server-side sessions, both kept
 * only as SHA-256 hashes of what the browser holds, and the counters of the rate limits on asking for links.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sign_in_links (
      token_hash text PRIMARY KEY,
      email text NOT NULL,
      return_to text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`
  yield* sql`CREATE INDEX sign_in_links_expires ON sign_in_links (expires_at)`
  yield* sql`
    CREATE TABLE sessions (
      id_hash text PRIMARY KEY,
      email text NOT NULL,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      ended_at timestamptz
    )`
  yield* sql`CREATE INDEX sessions_email ON sessions (lower(email))`
  // Sign-in finds a person's workspaces by address, whatever case it was typed in.
  yield* sql`CREATE INDEX members_email ON members (lower(email))`
  yield* sql`
    CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      count double precision NOT NULL,
      resets_at timestamptz NOT NULL
    )`
})
