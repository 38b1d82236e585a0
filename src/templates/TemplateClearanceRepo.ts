import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { TemplateClearanceRecord } from "./TemplateClearanceRecord.js"

/** Each workspace's template restriction; no row means every template is cleared. Every method takes the workspace. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const find = SqlSchema.findOne({
    Request: WorkspaceId,
    Result: TemplateClearanceRecord,
    execute: (workspaceId) =>
      sql`SELECT workspace_id, template_ids, updated_at FROM template_clearances WHERE workspace_id = ${workspaceId}`
  })
  const upsert = SqlSchema.void({
    Request: TemplateClearanceRecord.insert,
    execute: (row) =>
      sql`INSERT INTO template_clearances ${sql.insert(row)} ON CONFLICT (workspace_id)
          DO UPDATE SET template_ids = excluded.template_ids, updated_at = excluded.updated_at`
  })
  const remove = SqlSchema.void({
    Request: WorkspaceId,
    execute: (workspaceId) => sql`DELETE FROM template_clearances WHERE workspace_id = ${workspaceId}`
  })

  return {
    /** The restricted list, or none when the workspace may use every template. */
    find: (workspaceId: WorkspaceId) =>
      find(workspaceId).pipe(
        Effect.map(Option.map((row) => row.templateIds)),
        Effect.orDie,
        Effect.withSpan("TemplateClearanceRepo.find")
      ),
    restrict: (workspaceId: WorkspaceId, templateIds: ReadonlyArray<string>) =>
      upsert(TemplateClearanceRecord.insert.make({ workspaceId, templateIds })).pipe(
        Effect.orDie,
        Effect.withSpan("TemplateClearanceRepo.restrict")
      ),
    lift: (workspaceId: WorkspaceId) =>
      remove(workspaceId).pipe(Effect.orDie, Effect.withSpan("TemplateClearanceRepo.lift"))
  }
})

export class TemplateClearanceRepo extends Context.Tag("clipwright/templates/TemplateClearanceRepo")<
  TemplateClearanceRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(TemplateClearanceRepo, make)
}
