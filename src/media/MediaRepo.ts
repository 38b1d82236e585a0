import { SqlClient, SqlError, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { type MediaInsert, MediaRow } from "./MediaRecord.js"

const columns = "id, workspace_id, name, mime_type, kind, byte_size::text AS byte_size, sha256, blob_key, width, " +
  "height, uploaded_by, created_at"

const isUniqueViolation = (e: unknown) =>
  typeof e === "object" && e !== null && "cause" in e && typeof e.cause === "object" && e.cause !== null &&
  "code" in e.cause && e.cause.code === "23505"

/** Media library rows; every method is tenant-scoped and sees only live (not deleted) files. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const find = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: Schema.String, id: Schema.String }),
    Result: MediaRow,
    execute: ({ id, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM media_files
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })
  const findAny = SqlSchema.findOne({
    Request: Schema.String,
    Result: MediaRow,
    execute: (id) => sql`SELECT ${sql.unsafe(columns)} FROM media_files WHERE id = ${id} AND deleted_at IS NULL`
  })
  const findByName = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: Schema.String, name: Schema.String }),
    Result: MediaRow,
    execute: ({ name, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM media_files
          WHERE workspace_id = ${workspaceId} AND lower(name) = lower(${name}) AND deleted_at IS NULL`
  })
  const list = SqlSchema.findAll({
    Request: Schema.String,
    Result: MediaRow,
    execute: (workspaceId) =>
      sql`SELECT ${sql.unsafe(columns)} FROM media_files WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL
          ORDER BY created_at DESC, id DESC`
  })
  const usedBytes = SqlSchema.single({
    Request: Schema.String,
    Result: Schema.Struct({ n: Schema.NumberFromString }),
    execute: (workspaceId) =>
      sql`SELECT coalesce(sum(byte_size), 0)::text AS n FROM media_files
          WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })

  const insert = SqlSchema.findOne({
    Request: Schema.Any,
    Result: MediaRow,
    execute: (row: MediaInsert) =>
      sql`INSERT INTO media_files ${sql.insert({ ...row })} RETURNING ${sql.unsafe(columns)}`
  })

  /** False when the name is taken by another live file. */
  const rename = (workspaceId: string, id: string, name: string) =>
    sql`UPDATE media_files SET name = ${name}
        WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL RETURNING id`.pipe(
      Effect.as(true),
      Effect.catchIf(isUniqueViolation, () => Effect.succeed(false)),
      Effect.orDie
    )

  /** Marks the file deleted; `None` when it was not live. */
  const remove = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: Schema.String, id: Schema.String }),
    Result: Schema.Struct({ blobKey: Schema.String }),
    execute: ({ id, workspaceId }) =>
      sql`UPDATE media_files SET deleted_at = now()
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL RETURNING blob_key`
  })

  return {
    find: (workspaceId: string, id: string) => Effect.orDie(find({ workspaceId, id })),
    /** Any workspace's live file (the signed preview carries the authority). */
    findAny: (id: string) => Effect.orDie(findAny(id)),
    findByName: (workspaceId: string, name: string) => Effect.orDie(findByName({ workspaceId, name })),
    list: (workspaceId: string) => Effect.orDie(list(workspaceId)),
    usedBytes: (workspaceId: string) => Effect.orDie(Effect.map(usedBytes(workspaceId), (r) => r.n)),
    /** `None` when a live file of the workspace already has the name (any case). */
    insert: (row: MediaInsert) =>
      insert(row).pipe(
        Effect.catchIf(isUniqueViolation, () => Effect.succeed(Option.none<MediaRow>())),
        Effect.orDie
      ),
    rename,
    remove: (workspaceId: string, id: string) =>
      Effect.orDie(Effect.map(remove({ workspaceId, id }), Option.map((r) => r.blobKey))),
    /** One transaction around media rows and the brand styles they are held by. */
    withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(effect).pipe(
        Effect.catchIf((e): e is SqlError.SqlError => e instanceof SqlError.SqlError, Effect.die)
      )
  }
})

export class MediaRepo extends Context.Tag("clipwright/sql/MediaRepo")<
  MediaRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(MediaRepo, make)
}
