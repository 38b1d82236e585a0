import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { FeedSwitchRecord } from "./FeedSwitchRecord.js"

/** A workspace's feed switches; every method takes the workspace first and touches only its rows. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const list = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: FeedSwitchRecord,
    execute: (workspaceId) =>
      sql`SELECT workspace_id, feed_id, enabled, updated_at FROM feed_switches WHERE workspace_id = ${workspaceId}`
  })
  const off = SqlSchema.findAll({
    Request: Schema.String,
    Result: Schema.Struct({ workspaceId: WorkspaceId }),
    execute: (feedId) => sql`SELECT workspace_id FROM feed_switches WHERE feed_id = ${feedId} AND NOT enabled`
  })
  const upsert = SqlSchema.void({
    Request: FeedSwitchRecord.insert,
    execute: (row) =>
      sql`INSERT INTO feed_switches ${sql.insert(row)}
          ON CONFLICT (workspace_id, feed_id)
          DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at`
  })

  return {
    /** The switches the workspace has set, by feed id. */
    switches: (workspaceId: WorkspaceId) =>
      list(workspaceId).pipe(
        Effect.map((rows) => new Map(rows.map((row) => [row.feedId, row.enabled]))),
        Effect.orDie,
        Effect.withSpan("FeedSwitchRepo.switches")
      ),
    /** Every workspace that switched the feed off (across workspaces: a platform broadcast asks it). */
    switchedOffAnywhere: (feedId: string) =>
      off(feedId).pipe(
        Effect.map((rows) => new Set<WorkspaceId>(rows.map((row) => row.workspaceId))),
        Effect.orDie,
        Effect.withSpan("FeedSwitchRepo.switchedOffAnywhere")
      ),
    set: (workspaceId: WorkspaceId, feedId: string, enabled: boolean) =>
      upsert(FeedSwitchRecord.insert.make({ workspaceId, feedId, enabled })).pipe(
        Effect.orDie,
        Effect.withSpan("FeedSwitchRepo.set")
      )
  }
})

export class FeedSwitchRepo extends Context.Tag("clipwright/feeds/FeedSwitchRepo")<
  FeedSwitchRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(FeedSwitchRepo, make)
}
