import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { FieldMap } from "./Stream.js"
import { groupCommit } from "../sql/GroupCommit.js"

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

interface StreamUpdate {
  readonly id: string
  readonly workspaceId: string
  readonly changes: StreamChanges
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
  const updateAll = (items: ReadonlyArray<StreamUpdate>) =>
    sql<{ id: string }>`UPDATE streams s SET
        name = coalesce(u.name, s.name),
        description = coalesce(u.description, s.description),
        enabled = coalesce(u.enabled, s.enabled),
        template_id = coalesce(u.template_id, s.template_id),
        field_map = coalesce(u.field_map, s.field_map),
        updated_at = now()
      FROM unnest(${items.map((u) => u.id)}::text[], ${items.map((u) => u.workspaceId)}::text[],
        ${items.map((u) => u.changes.name ?? null)}::text[], ${items.map((u) => u.changes.description ?? null)}::text[],
        ${items.map((u) => u.changes.enabled ?? null)}::boolean[], ${items.map((u) => u.changes.templateId ?? null)}::text[],
        ${items.map((u) => u.changes.fieldMap === undefined ? null : JSON.stringify(u.changes.fieldMap))}::jsonb[])
        AS u(id, workspace_id, name, description, enabled, template_id, field_map)
      WHERE s.id = u.id AND s.workspace_id = u.workspace_id AND s.deleted_at IS NULL
      RETURNING s.id`.pipe(
      Effect.map((rows) => {
        const changed = new Set(rows.map((row) => row.id))
        return items.map((u) => changed.has(u.id))
      }),
      Effect.orDie
    )
  // A stream's entity sends one change at a time, so a group holds each stream once; were one there twice, one
  // statement would apply only one of its changes.
  const updates = yield* groupCommit({
    maxGroup: 200,
    span: { name: "sql.execute", attributes: { "db.system.name": "postgresql", "db.operation.name": "UPDATE streams" } },
    many: (items: ReadonlyArray<StreamUpdate>) =>
      new Set(items.map((u) => u.id)).size === items.length
        ? updateAll(items)
        : Effect.map(Effect.forEach(items, (u) => updateAll([u])), (answers) => answers.flat())
  })

  return {
    /** Any stream with that id, deleted or not, in any workspace: callers check tenancy. */
    findById: (id: string) => Effect.orDie(byId(id)),
    listLive: (workspaceId: string) => Effect.orDie(listLive(workspaceId)),
    insert: (row: StreamInsert) => Effect.orDie(insert(row)),
    /**
     * Changes a live stream of the workspace; answers false when there is none (missing, deleted, another's).
     * Group-committed with the changes of other streams (each stream's entity sends one change at a time).
     */
    update: (id: string, workspaceId: string, changes: StreamChanges) => updates({ id, workspaceId, changes }),
    markDeleted: (id: string) =>
      Effect.orDie(sql`UPDATE streams SET deleted_at = now(), updated_at = now(), name = name || ' (removed)'
        WHERE id = ${id} AND deleted_at IS NULL`)
  }
})

export class StreamRepo extends Context.Tag("clipwright/sql/StreamRepo")<
  StreamRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.scoped(StreamRepo, make)
}
