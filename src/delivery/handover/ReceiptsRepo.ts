import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { JobStatus } from "../../posts/JobStatus.js"
import { ReceiptAnswer, ReceiptPost } from "./Receipt.js"

const Recorded = ReceiptAnswer.fields.post

/**
 * The posts' platform fields as receipts write them. `find` reads a post by its id alone: the receipt URL's
 * signature, not a workspace, is the authority of `/v1/receipts/{postId}`; the write is scoped by the workspace the
 * row itself names.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const find = SqlSchema.findOne({
    Request: Schema.String,
    Result: ReceiptPost,
    execute: (id) =>
      sql`SELECT p.id, p.workspace_id, p.title, p.state, c.name AS channel_name, p.platform_post_id, p.permalink
          FROM posts p JOIN channels c ON c.id = p.channel_id AND c.workspace_id = p.workspace_id
          WHERE p.id = ${id}`
  })
  const record = SqlSchema.findOne({
    Request: Schema.Struct({
      workspaceId: WorkspaceId,
      id: Schema.String,
      states: Schema.Array(JobStatus),
      permalink: Schema.String,
      platformPostId: Schema.NullOr(Schema.String)
    }),
    Result: Recorded,
    // The state is checked in the same statement, so a post moved meanwhile (a delete that went through) is untouched.
    execute: (r) =>
      sql`UPDATE posts SET permalink = ${r.permalink},
            platform_post_id = COALESCE(${r.platformPostId}, platform_post_id), updated_at = now()
          WHERE workspace_id = ${r.workspaceId} AND id = ${r.id} AND state IN ${sql.in(r.states)}
          RETURNING id, state, platform_post_id, permalink`
  })
  return {
    find: (id: string) => Effect.orDie(find(id)),
    /** None when the post is no longer in one of `states`. */
    record: (
      workspaceId: WorkspaceId,
      id: string,
      states: ReadonlyArray<JobStatus>,
      fields: { readonly permalink: string; readonly platformPostId: string | null }
    ) => Effect.orDie(record({ workspaceId, id, states, ...fields }))
  }
})

export class ReceiptsRepo extends Context.Tag("clipwright/delivery/handover/ReceiptsRepo")<
  ReceiptsRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(ReceiptsRepo, make)
}
