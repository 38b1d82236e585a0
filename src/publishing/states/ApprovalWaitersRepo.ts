import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"

/** Jobs waiting for a person's decision on a render's video. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const awaitingApproval = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, renderJobId: Schema.String }),
    Result: Schema.Struct({ id: Schema.String, channelId: Schema.String }),
    execute: ({ renderJobId, workspaceId }) =>
      sql`SELECT id, channel_id FROM jobs
          WHERE workspace_id = ${workspaceId} AND render_job_id = ${renderJobId} AND status = 'AWAITING_APPROVAL'
          ORDER BY created_at, id`
  })
  return {
    awaitingApproval: (workspaceId: WorkspaceId, renderJobId: string) =>
      Effect.orDie(awaitingApproval({ workspaceId, renderJobId }))
  }
})

export class ApprovalWaitersRepo extends Context.Tag("clipwright/publishing/states/ApprovalWaitersRepo")<
  ApprovalWaitersRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(ApprovalWaitersRepo, make)
}
