import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The media library: metadata and byte counts here, the bytes in the blob store under `blob_key`. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE media_files (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id),
      name text NOT NULL,
      mime_type text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('Image', 'Video', 'Audio', 'Font')),
      byte_size bigint NOT NULL,
      sha256 text NOT NULL,
      blob_key text NOT NULL,
      width integer,
      height integer,
      uploaded_by text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    )`
  yield* sql`
    CREATE UNIQUE INDEX media_files_name_idx ON media_files (workspace_id, lower(name)) WHERE deleted_at IS NULL`
  yield* sql`CREATE INDEX media_files_workspace_idx ON media_files (workspace_id, created_at DESC)`
})
