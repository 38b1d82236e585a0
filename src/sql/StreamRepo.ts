import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { FieldMap } from "../domain/Stream.js"

export const StreamRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  name: Schema.String,
  description: Schema.String,
  enabled: Schema.Boolean,
  templateId: Schema.String,
  fieldMap: FieldMap,
  lastReceivedAt: Schema.NullOr(Schema.DateFromSelf),
  lastSample: Schema.NullOr(Schema.Unknown),
  createRequestId: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  deletedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type StreamRow = typeof StreamRow.Type

export interface StreamInsert {
  readonly id: string
  readonly workspaceId: string
  readonly name: string
  readonly description: string
  readonly enabled: boolean
  readonly templateId: string
  readonly fieldMap: FieldMap
  readonly createRequestId: string
}

export interface StreamChanges {
  readonly name?: string | undefined
  readonly description?: string | undefined
  readonly enabled?: boolean | undefined
  readonly templateId?: string | undefined
  readonly fieldMap?: FieldMap | undefined
}

const columns = "id, workspace_id, name, description, enabled, template_id, field_map, last_received_at, " +
  "last_sample, create_request_id, created_at, updated_at, deleted_at"

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const byId = SqlSchema.findOne({
    Request: Schema.String,
    Result: StreamRow,
    execute: (id) => sql`SELECT ${sql.unsafe(columns)} FROM streams WHERE id = ${id}`
  })
  const listLive = SqlSchema.findAll({
    Request: Schema.String,
    Result: StreamRow,
    execute: (workspaceId) =>
      sql`SELECT ${sql.unsafe(columns)} FROM streams
          WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL ORDER BY created_at, id`
  })
  const insert = SqlSchema.findAll({
    Request: Schema.Any,
    Result: StreamRow,
    execute: (row: StreamInsert) =>
      sql`INSERT INTO streams ${sql.insert({ ...row, fieldMap: JSON.stringify(row.fieldMap) })}
          ON CONFLICT (id) DO NOTHING RETURNING ${sql.unsafe(columns)}`
  })
  return {
    /** Any stream with that id, deleted or not, in any workspace: callers check tenancy. */
    findById: (id: string) => Effect.orDie(byId(id)),
    listLive: (workspaceId: string) => Effect.orDie(listLive(workspaceId)),
    insert: (row: StreamInsert) => Effect.orDie(insert(row)),
    /** Changes a live stream of the workspace; answers false when there is none (missing, deleted, another's). */
    update: (id: string, workspaceId: string, c: StreamChanges) =>
      sql`UPDATE streams SET
          name = coalesce(${c.name ?? null}, name),
          description = coalesce(${c.description ?? null}, description),
          enabled = coalesce(${c.enabled ?? null}, enabled),
          template_id = coalesce(${c.templateId ?? null}, template_id),
          field_map = coalesce(${c.fieldMap === undefined ? null : JSON.stringify(c.fieldMap)}::jsonb, field_map),
          updated_at = now()
        WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    markDeleted: (id: string) =>
      Effect.orDie(sql`UPDATE streams SET deleted_at = now(), updated_at = now(), name = name || ' (removed)'
        WHERE id = ${id} AND deleted_at IS NULL`)
  }
})

export class StreamRepo extends Context.Tag("clipwright/sql/StreamRepo")<
  StreamRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(StreamRepo, make)
}
