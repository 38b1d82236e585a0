import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { isUniqueViolation, transactionOrDie } from "../sql/Unique.js"
import { MediaRecord, type NewMediaFile } from "./MediaRecord.js"

const columns = "id, workspace_id, name, mime_type, kind, byte_size::text AS byte_size, sha256, blob_key, width, " +
  "height, uploaded_by, created_at, deleted_at"

const ById = Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String })
const Columns = Schema.Struct(MediaRecord.fields)

/** Media library rows; every method but `findAnyWorkspace` is tenant-scoped, and all see only live files. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const find = SqlSchema.findOne({
    Request: ById,
    Result: MediaRecord,
    execute: ({ id, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM media_files
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })
  const findAnyWorkspace = SqlSchema.findOne({
    Request: Schema.String,
    Result: MediaRecord,
    execute: (id) => sql`SELECT ${sql.unsafe(columns)} FROM media_files WHERE id = ${id} AND deleted_at IS NULL`
  })
  const findByName = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, name: Schema.String }),
    Result: MediaRecord,
    execute: ({ name, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM media_files
          WHERE workspace_id = ${workspaceId} AND lower(name) = lower(${name}) AND deleted_at IS NULL`
  })
  const list = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: MediaRecord,
    execute: (workspaceId) =>
      sql`SELECT ${sql.unsafe(columns)} FROM media_files WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL
          ORDER BY created_at DESC, id DESC`
  })
  const insert = SqlSchema.single({
    Request: MediaRecord.insert,
    Result: MediaRecord,
    execute: (row) => sql`INSERT INTO media_files ${sql.insert(row)} RETURNING ${sql.unsafe(columns)}`
  })
  const rename = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String, name: Schema.String }),
    Result: Columns.pick("id"),
    execute: ({ id, name, workspaceId }) =>
      sql`UPDATE media_files SET name = ${name}
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL RETURNING id`
  })
  const remove = SqlSchema.findOne({
    Request: ById,
    Result: Columns.pick("blobKey"),
    execute: ({ id, workspaceId }) =>
      sql`UPDATE media_files SET deleted_at = now()
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL RETURNING blob_key`
  })

  return {
    find: (workspaceId: WorkspaceId, id: string) => Effect.orDie(find({ workspaceId, id })),
    /** Any workspace's live file: only for the signed preview, whose signature carries the authority. */
    findAnyWorkspace: (id: string) => Effect.orDie(findAnyWorkspace(id)),
    findByName: (workspaceId: WorkspaceId, name: string) => Effect.orDie(findByName({ workspaceId, name })),
    list: (workspaceId: WorkspaceId) => Effect.orDie(list(workspaceId)),
    /** `None` when a live file of the workspace already has the name (any case). */
    insert: (workspaceId: WorkspaceId, file: NewMediaFile) =>
      // Its own savepoint inside a transaction: a name clash must not abort the transaction around it.
      sql.withTransaction(insert(MediaRecord.insert.make({ ...file, workspaceId }))).pipe(
        Effect.map(Option.some),
        Effect.catchIf(isUniqueViolation, () => Effect.succeed(Option.none<MediaRecord>())),
        Effect.orDie
      ),
    /** False when the name is taken by another live file. */
    rename: (workspaceId: WorkspaceId, id: string, name: string) =>
      rename({ workspaceId, id, name }).pipe(
        Effect.as(true),
        Effect.catchIf(isUniqueViolation, () => Effect.succeed(false)),
        Effect.orDie
      ),
    /** Marks the file deleted and answers its blob key; `None` when it was not live. */
    remove: (workspaceId: WorkspaceId, id: string) =>
      Effect.orDie(Effect.map(remove({ workspaceId, id }), Option.map((r) => r.blobKey))),
    /** One transaction around media rows and the brand styles they are held by. */
    withTransaction: transactionOrDie(sql)
  }
})

export class MediaRepo extends Context.Tag("clipwright/media/MediaRepo")<
  MediaRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(MediaRepo, make)
}
