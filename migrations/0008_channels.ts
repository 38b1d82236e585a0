import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A deleted channel keeps its row (renamed with ' (removed)') for history; its name is free again, so uniqueness
  // covers live channels only.
  yield* sql`
    CREATE TABLE channels (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      name text NOT NULL,
      surface text NOT NULL,
      ratio text NOT NULL,
      locale text NOT NULL,
      brand_id text NOT NULL REFERENCES brands (id),
      enabled boolean NOT NULL DEFAULT true,
      approval text NOT NULL,
      deliver_by_email boolean NOT NULL,
      deliver_by_webhook boolean NOT NULL,
      posting jsonb NOT NULL,
      syndicates boolean NOT NULL DEFAULT false,
      syndication_token text,
      create_request_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    )`
  yield* sql`CREATE UNIQUE INDEX channels_live_name_idx ON channels (workspace_id, name) WHERE deleted_at IS NULL`
  yield* sql`CREATE INDEX channels_brand_idx ON channels (workspace_id, brand_id) WHERE deleted_at IS NULL`
})
