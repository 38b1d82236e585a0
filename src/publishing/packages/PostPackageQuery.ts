import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { PostRecord } from "../../posts/PostRecord.js"
import { JobRecord } from "../states/JobRecord.js"

/** A job with its post (if written) and its stored video (if kept): what a package ZIP holds. */
// The job's columns as its record reads them; the post's may all be null (no post yet: a left join).
export const PackageRow = Schema.Struct({
  jobId: Schema.String,
  ...JobRecord.select.pick("status", "error", "origin").fields,
  channelName: Schema.String,
  postId: Schema.NullOr(Schema.String),
  platform: Schema.NullOr(Schema.String),
  surface: Schema.String,
  ...JobRecord.select.pick("locale", "ratio").fields,
  title: Schema.NullOr(Schema.String),
  caption: Schema.NullOr(Schema.String),
  hashtags: Schema.NullOr(Schema.Array(Schema.String)),
  ...JobRecord.select.pick("createdAt", "scheduledFor").fields,
  ...PostRecord.select.pick("publishedAt", "permalink").fields,
  blobKey: Schema.NullOr(Schema.String),
  renderState: Schema.NullOr(Schema.String)
})
export type PackageRow = typeof PackageRow.Type

const select = `SELECT j.id AS job_id, j.status, j.error, j.origin, c.name AS channel_name, p.id AS post_id, p.platform,
    c.surface, j.locale, j.ratio, p.title, p.caption, p.hashtags, j.created_at,
    coalesce(p.scheduled_for, j.scheduled_for) AS scheduled_for, p.published_at, p.permalink, r.state AS render_state,
    (SELECT k.blob_key FROM render_outputs o JOIN clips k ON k.id = o.clip_id AND k.stored
      WHERE o.render_job_id = j.render_job_id LIMIT 1) AS blob_key
  FROM jobs j
  JOIN channels c ON c.id = j.channel_id
  LEFT JOIN posts p ON p.job_id = j.id
  LEFT JOIN render_jobs r ON r.id = j.render_job_id`

/** Reads for package ZIPs, by job or by post; SQL only, in the caller's workspace. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const byJob = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: PackageRow,
    execute: ({ id, workspaceId }) => sql`${sql.unsafe(select)} WHERE j.workspace_id = ${workspaceId} AND j.id = ${id}`
  })
  const byPost = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String }),
    Result: PackageRow,
    execute: ({ id, workspaceId }) => sql`${sql.unsafe(select)} WHERE p.workspace_id = ${workspaceId} AND p.id = ${id}`
  })
  return {
    byJob: (workspaceId: WorkspaceId, id: string) => Effect.orDie(byJob({ workspaceId, id })),
    byPost: (workspaceId: WorkspaceId, id: string) => Effect.orDie(byPost({ workspaceId, id }))
  }
})

export class PostPackageQuery extends Context.Tag("clipwright/publishing/packages/PostPackageQuery")<
  PostPackageQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(PostPackageQuery, make)
}
