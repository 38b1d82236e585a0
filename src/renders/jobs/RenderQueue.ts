import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { TERMINAL_STATES_SQL } from "./RenderJob.js"
import { aheadOf, DRAWING_STATES_SQL, renderQueueCte } from "./RenderQueueOrder.js"

const Ids = Schema.Array(Schema.String)
const Claimed = Schema.Struct({ id: Schema.String, workspaceId: WorkspaceId })
const ById = Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String })

/** What is ahead of one waiting render under the fair order, by whose it is. */
export const RenderAhead = Schema.Struct({ otherWorkspaces: Schema.Number, ownPipeline: Schema.Number, ownExports: Schema.Number })
export type RenderAhead = typeof RenderAhead.Type

/** A workspace's pace: how long its recent renders took to draw, and how many workspaces share the slots now. */
const Pace = Schema.Struct({ meanSeconds: Schema.NullOr(Schema.Number), activeWorkspaces: Schema.Number })

/**
 * The render queue in PostgreSQL under its fair order (RenderQueueOrder.ts): the claim a node with a free slot makes
 * among the renders its runners hold, and what the allowance and views read of it.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One statement picks the first of these renders in the cluster's order and marks them SUBMITTED: a render moved
  // from PENDING once is drawn by the one runner that claimed it.
  const claim = SqlSchema.findAll({
    Request: Schema.Struct({ ids: Ids, limit: Schema.Number }),
    Result: Claimed,
    execute: ({ ids, limit }) =>
      sql`WITH ${renderQueueCte(sql)},
          picked AS (SELECT id FROM render_queue WHERE ${sql.in("id", ids)} ORDER BY turn, submitted_at, id LIMIT ${limit})
          UPDATE render_jobs j SET state = 'SUBMITTED', attempt = j.attempt + 1
            FROM picked WHERE j.id = picked.id AND j.state = 'PENDING'
          RETURNING j.id, j.workspace_id`
  })
  const ended = SqlSchema.findAll({
    Request: Ids,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (ids) =>
      sql`SELECT id FROM render_jobs WHERE ${sql.in("id", ids)} AND state IN ${sql.literal(TERMINAL_STATES_SQL)}`
  })
  const requeue = SqlSchema.void({
    Request: ById,
    execute: ({ id, workspaceId }) =>
      sql`UPDATE render_jobs SET state = 'PENDING'
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND state IN ${sql.literal(DRAWING_STATES_SQL)}`
  })
  const ahead = SqlSchema.single({
    Request: ById,
    Result: RenderAhead,
    execute: ({ id, workspaceId }) => aheadOf(sql, workspaceId, id)
  })
  const waiting = SqlSchema.single({
    Request: WorkspaceId,
    Result: Schema.Struct({ n: Schema.Number }),
    execute: (workspaceId) =>
      sql`SELECT count(*)::int AS n FROM render_jobs
          WHERE workspace_id = ${workspaceId} AND state IN ('PENDING', 'SUBMITTED')`
  })
  const pace = SqlSchema.single({
    Request: WorkspaceId,
    Result: Pace,
    execute: (workspaceId) =>
      sql`SELECT (SELECT avg(extract(epoch FROM finished_at - started_at))::float8 FROM (
                    SELECT finished_at, started_at FROM render_jobs
                     WHERE workspace_id = ${workspaceId} AND state IN ('COMPLETED', 'PARTIAL') AND started_at IS NOT NULL
                     ORDER BY finished_at DESC LIMIT 20) recent) AS mean_seconds,
                 (SELECT count(DISTINCT workspace_id)::int FROM render_jobs
                   WHERE state = 'PENDING' OR state IN ${sql.literal(DRAWING_STATES_SQL)}) AS active_workspaces`
  })

  return {
    /** Of these renders (the ones this node's runners wait to draw), the first `limit` in the cluster's order. */
    claim: (ids: ReadonlyArray<string>, limit: number) =>
      ids.length === 0 || limit <= 0 ? Effect.succeed([]) : Effect.orDie(claim({ ids, limit })),
    /** Of these renders, the ones that ended while they waited (nothing left to draw). */
    ended: (ids: ReadonlyArray<string>) =>
      ids.length === 0 ? Effect.succeed([]) : Effect.map(Effect.orDie(ended(ids)), (rows) => rows.map((r) => r.id)),
    /** A render drawn by a node that died waits again, at its place in its workspace's line. */
    requeue: (workspaceId: WorkspaceId, id: string) => Effect.orDie(requeue({ workspaceId, id })),
    ahead: (workspaceId: WorkspaceId, id: string) => Effect.orDie(ahead({ workspaceId, id })),
    /** Renders of this workspace not drawing yet: what its share of the queue is measured by. */
    waitingOf: (workspaceId: WorkspaceId) => Effect.orDie(Effect.map(waiting(workspaceId), (r) => r.n)),
    pace: (workspaceId: WorkspaceId) => Effect.orDie(pace(workspaceId))
  }
})

export class RenderQueue extends Context.Tag("clipwright/renders/RenderQueue")<
  RenderQueue,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(RenderQueue, make)
}
