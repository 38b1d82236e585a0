import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { type NameTaken, nameTakenOnUnique, transactionOrDie } from "../sql/Unique.js"
import { BrandRecord, type BrandWrite } from "./BrandRecord.js"
import type { BrandStyle } from "./BrandStyle.js"

const columns = "id, workspace_id, name, enabled, style, created_at, updated_at, deleted_at"

const ById = Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String })
const Columns = Schema.Struct(BrandRecord.fields)

/**
 * Brand rows. Every method is scoped to one workspace: another workspace's brand answers like a missing one. A
 * deleted brand keeps its row; only `find` sees it.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const findLive = SqlSchema.findOne({
    Request: ById,
    Result: BrandRecord,
    execute: ({ id, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM brands
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })
  const lockLive = SqlSchema.findOne({
    Request: ById,
    Result: BrandRecord,
    execute: ({ id, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM brands
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL FOR UPDATE`
  })
  const find = SqlSchema.findOne({
    Request: ById,
    Result: BrandRecord,
    execute: ({ id, workspaceId }) =>
      sql`SELECT ${sql.unsafe(columns)} FROM brands WHERE id = ${id} AND workspace_id = ${workspaceId}`
  })
  const listLive = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: BrandRecord,
    execute: (workspaceId) =>
      sql`SELECT ${sql.unsafe(columns)} FROM brands
          WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL ORDER BY created_at, id`
  })
  const liveNames = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Columns.pick("name"),
    execute: (workspaceId) => sql`SELECT name FROM brands WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })
  const nameHolder = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, name: Schema.String, exceptId: Schema.String }),
    Result: Columns.pick("id"),
    execute: ({ exceptId, name, workspaceId }) =>
      sql`SELECT id FROM brands WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL
          AND lower(name) = lower(${name}) AND id <> ${exceptId} LIMIT 1`
  })
  const insert = SqlSchema.findOne({
    Request: BrandRecord.insert,
    Result: BrandRecord,
    execute: (row) => sql`INSERT INTO brands ${sql.insert(row)} ON CONFLICT DO NOTHING RETURNING ${sql.unsafe(columns)}`
  })
  const update = SqlSchema.findOne({
    Request: BrandRecord.update,
    Result: BrandRecord,
    execute: (row) =>
      sql`UPDATE brands SET name = ${row.name}, enabled = ${row.enabled}, style = ${row.style}::jsonb,
            updated_at = ${row.updatedAt}
          WHERE id = ${row.id} AND workspace_id = ${row.workspaceId} AND deleted_at IS NULL
          RETURNING ${sql.unsafe(columns)}`
  })
  const markDeleted = SqlSchema.void({
    Request: ById,
    execute: ({ id, workspaceId }) =>
      // History (a deleted channel's jobs and posts) names it with ' (removed)', as deleted channels and streams.
      sql`UPDATE brands SET deleted_at = now(), updated_at = now(), name = name || ' (removed)'
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND deleted_at IS NULL`
  })

  return {
    /** A live brand of the workspace. */
    findLive: (workspaceId: WorkspaceId, id: string) => Effect.orDie(findLive({ workspaceId, id })),
    /** As findLive, holding the row until the transaction ends (slot writes lock it too). */
    lockLive: (workspaceId: WorkspaceId, id: string) => Effect.orDie(lockLive({ workspaceId, id })),
    /** A brand of the workspace, deleted or not: renders submitted before a deletion still draw with it. */
    find: (workspaceId: WorkspaceId, id: string) => Effect.orDie(find({ workspaceId, id })),
    listLive: (workspaceId: WorkspaceId) => Effect.orDie(listLive(workspaceId)),
    liveNames: (workspaceId: WorkspaceId) =>
      liveNames(workspaceId).pipe(Effect.map((rows) => rows.map((r) => r.name)), Effect.orDie),
    /** Another live brand of the workspace is called that (case-blind). */
    nameTaken: (workspaceId: WorkspaceId, name: string, exceptId: string | null) =>
      nameHolder({ workspaceId, name, exceptId: exceptId ?? "" }).pipe(Effect.map(Option.isSome), Effect.orDie),
    /** `None` when the id exists or the name is taken. */
    insert: (
      workspaceId: WorkspaceId,
      brand: { readonly id: string; readonly name: string; readonly enabled: boolean; readonly style: BrandStyle }
    ) => Effect.orDie(insert(BrandRecord.insert.make({ ...brand, workspaceId }))),
    /** Writes a live brand of the workspace: none when there is no such brand. */
    write: (
      workspaceId: WorkspaceId,
      id: string,
      w: BrandWrite
    ): Effect.Effect<Option.Option<BrandRecord>, NameTaken> =>
      nameTakenOnUnique(update(BrandRecord.update.make({ id, workspaceId, ...w }))),
    markDeleted: (workspaceId: WorkspaceId, id: string) => Effect.orDie(markDeleted({ workspaceId, id })),
    withTransaction: transactionOrDie(sql)
  }
})

export class BrandRepo extends Context.Tag("clipwright/brands/BrandRepo")<
  BrandRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(BrandRepo, make)
}
