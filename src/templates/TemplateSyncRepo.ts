import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { TemplateSyncRecord } from "./TemplateSyncRecord.js"

/** The new mirror and what to answer, computed from the previous mirror. */
export interface Replacement<A> {
  readonly rows: ReadonlyArray<typeof TemplateSyncRecord.insert.Type>
  readonly answer: A
}

/** Each workspace's mirrored template state; every method is scoped to one workspace. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const list = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: TemplateSyncRecord,
    execute: (workspaceId) => sql`SELECT * FROM template_syncs WHERE workspace_id = ${workspaceId} ORDER BY template_id`
  })
  const clear = SqlSchema.void({
    Request: WorkspaceId,
    execute: (workspaceId) => sql`DELETE FROM template_syncs WHERE workspace_id = ${workspaceId}`
  })
  const insert = SqlSchema.void({
    Request: Schema.Array(TemplateSyncRecord.insert),
    execute: (rows) => sql`INSERT INTO template_syncs ${sql.insert(rows)}`
  })
  // Serialises two syncs of one workspace, also before its first sync has stored any row.
  const lock = (workspaceId: WorkspaceId) =>
    sql`SELECT pg_advisory_xact_lock(hashtext(${`template_syncs:${workspaceId}`}))`

  return {
    list: (workspaceId: WorkspaceId) => Effect.orDie(list(workspaceId)),
    /** Replaces the workspace's mirror in one transaction, handing the previous one to `next` first. */
    replace: <A>(workspaceId: WorkspaceId, next: (previous: ReadonlyArray<TemplateSyncRecord>) => Replacement<A>) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* lock(workspaceId)
        const { answer, rows } = next(yield* list(workspaceId))
        yield* clear(workspaceId)
        if (rows.length > 0) yield* insert(rows)
        return answer
      })).pipe(Effect.orDie)
  }
})

export class TemplateSyncRepo extends Context.Tag("clipwright/templates/TemplateSyncRepo")<
  TemplateSyncRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(TemplateSyncRepo, make)
}
