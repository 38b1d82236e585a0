import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { groupCommit } from "../sql/GroupCommit.js"
import { SendTarget, StreamChanges, StreamRecord } from "./StreamRecord.js"

/** One stream's change in a group-committed update. */
const StreamUpdate = Schema.Struct({ id: Schema.String, workspaceId: WorkspaceId, changes: StreamChanges })
type StreamUpdate = typeof StreamUpdate.Type

const ownColumns = "id, workspace_id, name, description, enabled, template_id, field_map, create_request_id, " +
  "created_at, updated_at, deleted_at"

/**
 * A stream with what it last received: the newest row of its ingest log, so the hot path never writes the stream
 * (its entity stays the only writer of the row).
 */
const selectStreams = `SELECT ${ownColumns.split(", ").map((c) => "s." + c).join(", ")},
    r.received_at AS last_received_at, r.data AS last_sample
  FROM streams s LEFT JOIN LATERAL (
    SELECT e.received_at, e.data FROM ingest_events e
    WHERE e.stream_id = s.id ORDER BY e.received_at DESC, e.id DESC LIMIT 1
  ) r ON true`

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const byId = SqlSchema.findOne({
    Request: Schema.String,
    Result: StreamRecord,
    execute: (id) => sql`${sql.unsafe(selectStreams)} WHERE s.id = ${id}`
  })
  const live = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: StreamRecord,
    execute: ({ id, workspaceId }) =>
      sql`${sql.unsafe(selectStreams)}
          WHERE s.id = ${id} AND s.workspace_id = ${workspaceId} AND s.deleted_at IS NULL`
  })
  const target = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: SendTarget,
    execute: ({ id, workspaceId }) =>
      sql`SELECT id, name, enabled, template_id, field_map FROM streams
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })
  const listLive = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: StreamRecord,
    execute: (workspaceId) =>
      sql`${sql.unsafe(selectStreams)}
          WHERE s.workspace_id = ${workspaceId} AND s.deleted_at IS NULL ORDER BY s.created_at, s.id`
  })
  const insert = SqlSchema.findOne({
    Request: StreamRecord.insert,
    Result: StreamRecord,
    execute: (row) =>
      sql`INSERT INTO streams ${sql.insert(row)} ON CONFLICT (id) DO NOTHING
          RETURNING ${sql.unsafe(ownColumns)}, NULL::timestamptz AS last_received_at, NULL::jsonb AS last_sample`
  })
  const markDeleted = SqlSchema.void({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    execute: ({ id, workspaceId }) =>
      sql`UPDATE streams SET deleted_at = now(), updated_at = now(), name = name || ' (removed)'
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })
  const updateAll = SqlSchema.findAll({
    Request: Schema.Array(StreamUpdate),
    Result: Schema.Struct({ id: Schema.String }),
    execute: (items) =>
      sql`UPDATE streams s SET
        name = coalesce(u.name, s.name),
        description = coalesce(u.description, s.description),
        enabled = coalesce(u.enabled, s.enabled),
        template_id = coalesce(u.template_id, s.template_id),
        field_map = coalesce(u.field_map, s.field_map),
        updated_at = now()
      FROM unnest(${items.map((u) => u.id)}::text[], ${items.map((u) => u.workspaceId)}::text[],
        ${items.map((u) => u.changes.name ?? null)}::text[], ${items.map((u) => u.changes.description ?? null)}::text[],
        ${items.map((u) => u.changes.enabled ?? null)}::boolean[], ${
        items.map((u) => u.changes.templateId ?? null)
      }::text[],
        ${items.map((u) => u.changes.fieldMap === undefined ? null : JSON.stringify(u.changes.fieldMap))}::jsonb[])
        AS u(id, workspace_id, name, description, enabled, template_id, field_map)
      WHERE s.id = u.id AND s.workspace_id = u.workspace_id AND s.deleted_at IS NULL
      RETURNING s.id`
  })
  /** For each change, whether it found its live stream in its workspace. */
  const applyAll = (items: ReadonlyArray<StreamUpdate>) =>
    updateAll(items).pipe(
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
    span: {
      name: "sql.execute",
      attributes: { "db.system.name": "postgresql", "db.operation.name": "UPDATE streams" }
    },
    many: (items: ReadonlyArray<StreamUpdate>) =>
      new Set(items.map((u) => u.id)).size === items.length
        ? applyAll(items)
        : Effect.map(Effect.forEach(items, (u) => applyAll([u])), (answers) => answers.flat())
  })

  return {
    /** Any stream with that id, deleted or not, in any workspace: stream ids are global, so a create checks them all. */
    findInAnyWorkspace: (id: string) => Effect.orDie(byId(id)),
    /** The workspace's live stream with that id; another workspace's answers None, as a missing one does. */
    findLive: (workspaceId: WorkspaceId, id: string) => Effect.orDie(live({ workspaceId, id })),
    /** What sending an event needs of a live stream, and nothing more: read once per event on the hot path. */
    findTarget: (workspaceId: WorkspaceId, id: string) => Effect.orDie(target({ workspaceId, id })),
    listLive: (workspaceId: WorkspaceId) => Effect.orDie(listLive(workspaceId)),
    /** None when the id is taken (by any workspace). */
    insert: (row: typeof StreamRecord.insert.Type) => Effect.orDie(insert(row)),
    /**
     * Changes a live stream of the workspace; answers false when there is none (missing, deleted, another's).
     * Group-committed with the changes of other streams (each stream's entity sends one change at a time).
     */
    update: (workspaceId: WorkspaceId, id: string, changes: StreamChanges) => updates({ id, workspaceId, changes }),
    markDeleted: (workspaceId: WorkspaceId, id: string) => Effect.orDie(markDeleted({ workspaceId, id }))
  }
})

export class StreamRepo extends Context.Tag("clipwright/streams/StreamRepo")<
  StreamRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.scoped(StreamRepo, make)
}
