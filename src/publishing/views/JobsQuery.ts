import { SqlClient, SqlSchema, type Statement } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { Origin } from "../../domain/Origin.js"
import { WorkspaceId } from "../../domain/Principal.js"
import { eventDetails } from "../../sql/SourceNames.js"
import {
  type JobFilter,
  JobFilterFields,
  type JobScope,
  likePattern,
  ListedJob,
  ListedPost,
  Paging,
  type PostFilter,
  PostFilterFields
} from "./JobListings.js"

/** Tenant-scoped reads of jobs and posts for the paged logs; never wakes an entity. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A deleted stream's events read '<name> (removed)', as a deleted channel's jobs do.
  const details = eventDetails(sql, "e")

  // The job row says AWAITING_RENDERING for the whole render; the render job tells how far it got.
  const statusOf =
    sql`(CASE WHEN j.status = 'AWAITING_RENDERING' AND r.state IN ('SUBMITTED', 'RENDERING') THEN 'RENDERING'
    WHEN j.status = 'AWAITING_RENDERING' AND r.state IN ('DOWNLOADING', 'STORED') THEN 'DOWNLOADING'
    ELSE j.status END)`
  const approvalOf = sql`lower(coalesce(a.state, 'none'))`
  // The stored clip of the render's output in the job's shape and language (any stored output otherwise).
  const clipOf = (renderJobId: Statement.Fragment, ratio: Statement.Fragment, locale: Statement.Fragment) =>
    sql`(SELECT o.clip_id FROM render_outputs o JOIN clips k ON k.id = o.clip_id AND k.stored
      WHERE o.render_job_id = ${renderJobId}
      ORDER BY (o.ratio = ${ratio} AND o.locale = ${locale}) DESC, o.ratio, o.locale LIMIT 1)`

  const jobsFrom = sql`FROM jobs j
    JOIN ingest_events e ON e.id = j.ingest_event_id
    JOIN channels c ON c.id = j.channel_id AND c.workspace_id = j.workspace_id
    JOIN brands b ON b.id = c.brand_id
    LEFT JOIN render_jobs r ON r.id = j.render_job_id AND r.workspace_id = j.workspace_id
    LEFT JOIN posts p ON p.job_id = j.id
    LEFT JOIN approvals a ON a.job_id = j.id`

  // Created or updated inside the window; a missing bound leaves that side open.
  const inWindow = (column: string, since: string | undefined, until: string | undefined) =>
    sql.and([
      ...(since === undefined ? [] : [sql`${sql(column)} >= ${since}::timestamptz`]),
      ...(until === undefined ? [] : [sql`${sql(column)} <= ${until}::timestamptz`])
    ])

  const jobsWhere = (f: JobFilter & { readonly workspaceId: string }) => {
    const pattern = f.q === undefined ? undefined : likePattern(f.q)
    const windowed = f.since !== undefined || f.until !== undefined
    return sql.and([
      sql`j.workspace_id = ${f.workspaceId}`,
      ...(f.channelId === undefined ? [] : [sql`j.channel_id = ${f.channelId}`]),
      ...(f.brandId === undefined ? [] : [sql`c.brand_id = ${f.brandId}`]),
      ...(windowed
        ? [sql`(${inWindow("j.created_at", f.since, f.until)} OR ${inWindow("j.updated_at", f.since, f.until)})`]
        : []),
      ...(pattern === undefined ? [] : [sql`(${details} ILIKE ${pattern} OR e.post_title ILIKE ${pattern}
        OR c.name ILIKE ${pattern} OR j.id ILIKE ${pattern})`]),
      ...(f.statuses === undefined ? [] : [sql`${statusOf} IN ${sql.in(f.statuses)}`]),
      ...(f.surfaces === undefined ? [] : [sql.in("c.surface", f.surfaces)]),
      ...(f.origin === undefined ? [] : [sql`j.origin = ${f.origin}`]),
      ...(f.approval === undefined ? [] : [sql`${approvalOf} = ${f.approval}`])
    ])
  }

  const jobPage = SqlSchema.findAll({
    Request: Schema.Struct({ ...JobFilterFields, ...Paging }),
    Result: ListedJob,
    execute: (r) =>
      sql`SELECT j.id, ${statusOf} AS status, r.state AS render_state, r.progress AS render_progress, j.created_at,
          j.updated_at, j.origin, ${details} AS details, e.post_title, j.channel_id, c.name AS channel_name,
          c.approval AS channel_approval, c.surface, c.brand_id, b.name AS brand_name, j.ratio, j.locale,
          p.id AS post_id, p.caption, p.title, p.published_at, p.permalink,
          coalesce(p.scheduled_for, j.scheduled_for) AS scheduled_for, j.error, j.template_id,
          r.template_name AS render_template_name, coalesce(j.template_variant, r.template_variant) AS template_variant,
          j.template_version, j.render_job_id, a.id AS approval_id, a.state AS approval_state,
          a.decided_by AS approval_decided_by,
          ${clipOf(sql`j.render_job_id`, sql`j.ratio`, sql`j.locale`)} AS clip_id
        ${jobsFrom}
        WHERE ${jobsWhere(r)}
        ORDER BY j.created_at DESC, j.id DESC LIMIT ${r.limit} OFFSET ${r.offset}`
  })

  const jobCounts = SqlSchema.findAll({
    Request: Schema.Struct(JobFilterFields),
    Result: Schema.Struct({
      status: Schema.String,
      approval: Schema.String,
      surface: Schema.String,
      origin: Origin,
      n: Schema.Number
    }),
    execute: (r) =>
      sql`SELECT ${statusOf} AS status, ${approvalOf} AS approval, c.surface, j.origin, count(*)::int AS n
        ${jobsFrom}
        WHERE ${jobsWhere(r)}
        GROUP BY 1, 2, 3, 4`
  })

  const everyJob = SqlSchema.single({
    Request: WorkspaceId,
    Result: Schema.Struct({ n: Schema.Number }),
    execute: (workspaceId) => sql`SELECT count(*)::int AS n FROM jobs WHERE workspace_id = ${workspaceId}`
  })

  const postsFrom = sql`FROM posts p
    JOIN jobs j ON j.id = p.job_id AND j.workspace_id = p.workspace_id
    JOIN ingest_events e ON e.id = j.ingest_event_id
    JOIN channels c ON c.id = p.channel_id AND c.workspace_id = p.workspace_id
    JOIN brands b ON b.id = c.brand_id
    LEFT JOIN render_jobs r ON r.id = j.render_job_id AND r.workspace_id = j.workspace_id`

  const postsWhere = (f: PostFilter & { readonly workspaceId: string }) => {
    const pattern = f.q === undefined ? undefined : likePattern(f.q)
    return sql.and([
      sql`p.workspace_id = ${f.workspaceId}`,
      ...(f.channelId === undefined ? [] : [sql`p.channel_id = ${f.channelId}`]),
      ...(pattern === undefined ? [] : [sql`(${details} ILIKE ${pattern} OR e.post_title ILIKE ${pattern}
        OR c.name ILIKE ${pattern} OR p.title ILIKE ${pattern} OR p.id ILIKE ${pattern} OR p.job_id ILIKE ${pattern})`]),
      ...(f.state === undefined ? [] : [sql`${statusOf} = ${f.state}`]),
      ...(f.platform === undefined ? [] : [sql`p.platform = ${f.platform}`])
    ])
  }

  const postPage = SqlSchema.findAll({
    Request: Schema.Struct({ ...PostFilterFields, ...Paging }),
    Result: ListedPost,
    execute: (r) =>
      sql`SELECT p.id, p.job_id, j.origin, ${details} AS details, e.post_title, ${statusOf} AS state, p.platform, p.surface,
          c.name AS channel_name, b.name AS brand_name, p.locale, p.ratio, p.title, p.caption, p.hashtags,
          p.created_at, p.scheduled_for, p.published_at, p.platform_post_id, p.permalink, p.failure_reason,
          ${clipOf(sql`p.render_job_id`, sql`p.ratio`, sql`p.locale`)} AS clip_id
        ${postsFrom}
        WHERE ${postsWhere(r)}
        ORDER BY p.created_at DESC, p.id DESC LIMIT ${r.limit} OFFSET ${r.offset}`
  })

  const postCounts = SqlSchema.findAll({
    Request: Schema.Struct(PostFilterFields),
    Result: Schema.Struct({ state: Schema.String, platform: Schema.String, n: Schema.Number }),
    execute: (r) =>
      sql`SELECT ${statusOf} AS state, p.platform, count(*)::int AS n ${postsFrom} WHERE ${postsWhere(r)} GROUP BY 1, 2`
  })

  const everyPost = SqlSchema.single({
    Request: WorkspaceId,
    Result: Schema.Struct({ n: Schema.Number }),
    execute: (workspaceId) => sql`SELECT count(*)::int AS n FROM posts WHERE workspace_id = ${workspaceId}`
  })

  return {
    /** Newest first, matching every filter given. */
    jobs: (workspaceId: WorkspaceId, filter: JobFilter, limit: number, offset: number) =>
      Effect.orDie(jobPage({ workspaceId, ...filter, limit, offset })),
    /** Jobs per status, approval, surface and origin among those in the scope. */
    jobCounts: (workspaceId: WorkspaceId, scope: JobScope) => Effect.orDie(jobCounts({ workspaceId, ...scope })),
    countJobs: (workspaceId: WorkspaceId) => Effect.map(Effect.orDie(everyJob(workspaceId)), (row) => row.n),
    /** Newest first, matching every filter given. */
    posts: (workspaceId: WorkspaceId, filter: PostFilter, limit: number, offset: number) =>
      Effect.orDie(postPage({ workspaceId, ...filter, limit, offset })),
    /** Posts per state and platform among those matching `channelId` and `q`. */
    postCounts: (workspaceId: WorkspaceId, scope: Pick<PostFilter, "channelId" | "q">) =>
      Effect.orDie(postCounts({ workspaceId, ...scope })),
    countPosts: (workspaceId: WorkspaceId) => Effect.map(Effect.orDie(everyPost(workspaceId)), (row) => row.n)
  }
})

export class JobsQuery extends Context.Tag("clipwright/publishing/views/JobsQuery")<
  JobsQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(JobsQuery, make)
}
