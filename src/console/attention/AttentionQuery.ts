import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { statusesOf } from "../../posts/JobStatus.js"

/** Rows shown per kind on the console's home; the counts say how many there are in all. */
export const SHOWN = 5
/** A failed job needs attention for this long after it failed. */
export const FAILED_WITHIN_DAYS = 7

const FAILED = statusesOf("failed")

export const Attention = Schema.Struct({
  pendingApprovals: Schema.Number,
  deadDeliveries: Schema.Number,
  failedJobs: Schema.Number,
  approvals: Schema.Array(Schema.Struct({
    id: Schema.String,
    title: Schema.NullOr(Schema.String),
    channelName: Schema.String,
    requestedAt: Schema.DateFromSelf
  })),
  deliveries: Schema.Array(Schema.Struct({
    id: Schema.String,
    via: Schema.String,
    event: Schema.String,
    lastError: Schema.NullOr(Schema.String),
    updatedAt: Schema.DateFromSelf
  })),
  jobs: Schema.Array(Schema.Struct({
    id: Schema.String,
    status: Schema.String,
    error: Schema.NullOr(Schema.String),
    channelName: Schema.String,
    updatedAt: Schema.DateFromSelf
  }))
})
export type Attention = typeof Attention.Type

/** What needs a person now in one workspace: waiting approvals, dead deliveries, jobs failed lately. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const counts = SqlSchema.single({
    Request: WorkspaceId,
    Result: Schema.Struct({
      pendingApprovals: Schema.Number,
      deadDeliveries: Schema.Number,
      failedJobs: Schema.Number
    }),
    execute: (workspaceId) =>
      sql`SELECT
            (SELECT count(*)::int FROM approvals WHERE workspace_id = ${workspaceId} AND state = 'PENDING')
              AS pending_approvals,
            (SELECT count(*)::int FROM deliveries WHERE workspace_id = ${workspaceId} AND state = 'DEAD') AS dead_deliveries,
            (SELECT count(*)::int FROM jobs WHERE workspace_id = ${workspaceId} AND status IN ${sql.in(FAILED)}
              AND updated_at > now() - make_interval(days => ${FAILED_WITHIN_DAYS})) AS failed_jobs`
  })
  const approvals = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Attention.fields.approvals.value,
    execute: (workspaceId) =>
      sql`SELECT a.id, p.title, c.name AS channel_name, a.requested_at FROM approvals a
          JOIN channels c ON c.id = a.channel_id LEFT JOIN posts p ON p.job_id = a.job_id
          WHERE a.workspace_id = ${workspaceId} AND a.state = 'PENDING'
          ORDER BY a.requested_at DESC, a.id DESC LIMIT ${SHOWN}`
  })
  const deliveries = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Attention.fields.deliveries.value,
    execute: (workspaceId) =>
      sql`SELECT id, via, event, last_error, updated_at FROM deliveries
          WHERE workspace_id = ${workspaceId} AND state = 'DEAD' ORDER BY updated_at DESC, id DESC LIMIT ${SHOWN}`
  })
  const jobs = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Attention.fields.jobs.value,
    execute: (workspaceId) =>
      sql`SELECT j.id, j.status, j.error, c.name AS channel_name, j.updated_at FROM jobs j
          JOIN channels c ON c.id = j.channel_id
          WHERE j.workspace_id = ${workspaceId} AND j.status IN ${sql.in(FAILED)}
            AND j.updated_at > now() - make_interval(days => ${FAILED_WITHIN_DAYS})
          ORDER BY j.updated_at DESC, j.id DESC LIMIT ${SHOWN}`
  })
  return {
    of: Effect.fn("AttentionQuery.of")(function*(workspaceId: WorkspaceId) {
      const [n, a, d, j] = yield* Effect.all([
        counts(workspaceId),
        approvals(workspaceId),
        deliveries(workspaceId),
        jobs(workspaceId)
      ], {
        concurrency: "unbounded"
      }).pipe(Effect.orDie)
      return { ...n, approvals: a, deliveries: d, jobs: j } satisfies Attention
    })
  }
})

export class AttentionQuery extends Context.Tag("clipwright/console/attention/AttentionQuery")<
  AttentionQuery,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(AttentionQuery, make)
}
