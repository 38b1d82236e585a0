import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { EntitlementRecord } from "./EntitlementRecord.js"

export interface Deviation {
  readonly sourceSlug: string
  readonly entitled: boolean
}

/** A workspace's entitlement deviations; every method takes the workspace first and touches only its rows. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const list = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: EntitlementRecord,
    execute: (workspaceId) =>
      sql`SELECT workspace_id, source_slug, entitled, updated_at FROM feed_entitlements
          WHERE workspace_id = ${workspaceId} ORDER BY source_slug`
  })
  const clear = SqlSchema.void({
    Request: WorkspaceId,
    execute: (workspaceId) => sql`DELETE FROM feed_entitlements WHERE workspace_id = ${workspaceId}`
  })
  const insert = SqlSchema.void({
    Request: EntitlementRecord.insert,
    execute: (row) => sql`INSERT INTO feed_entitlements ${sql.insert(row)}`
  })

  /** Replaces the whole set in one transaction: a reader sees the old deviations or the new, never a mix. */
  const replace = (workspaceId: WorkspaceId, deviations: ReadonlyArray<Deviation>) =>
    sql.withTransaction(Effect.gen(function*() {
      yield* clear(workspaceId)
      for (const deviation of deviations) {
        yield* insert(EntitlementRecord.insert.make({ workspaceId, ...deviation }))
      }
    })).pipe(Effect.orDie, Effect.withSpan("EntitlementRepo.replace"))

  return {
    list: (workspaceId: WorkspaceId) => list(workspaceId).pipe(Effect.orDie, Effect.withSpan("EntitlementRepo.list")),
    replace
  }
})

export class EntitlementRepo extends Context.Tag("clipwright/feeds/EntitlementRepo")<
  EntitlementRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(EntitlementRepo, make)
}
