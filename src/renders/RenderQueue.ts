import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { TERMINAL_STATES_SQL } from "./RenderJob.js"
import { aheadOf, DRAWING_STATES_SQL, liveNodes, renderOrder, renderQueueCte } from "./RenderQueueOrder.js"

const Ids = Schema.Array(Schema.String)
/** A render claimed for one of this node's slots, and how long it waited in line (the database's clock). */
const Claimed = Schema.Struct({ id: Schema.String, workspaceId: WorkspaceId, waitedSeconds: Schema.Number })
export type Claimed = typeof Claimed.Type
/** How many renders past the free slots a claim looks at, so those another node locks at once are stepped over. */
const CLAIM_SPARE = 16
const ById = Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String })

/** What is ahead of one waiting render under the fair order, by whose it is. */
export const RenderAhead = Schema.Struct({
  otherWorkspaces: Schema.Number,
  ownPipeline: Schema.Number,
  ownExports: Schema.Number
})
export type RenderAhead = typeof RenderAhead.Type

/** A workspace's pace: how long its recent renders took to draw, and how many workspaces share the slots now. */
const Pace = Schema.Struct({ meanSeconds: Schema.NullOr(Schema.Number), activeWorkspaces: Schema.Number })

/**
 * The render queue in PostgreSQL under its fair order (RenderQueueOrder.ts): the claim a node with a free slot makes
 * of the next renders in line, wherever their runners live, and what the allowance and views read of it.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const order = yield* renderOrder
  // One statement picks the first renders in line in the cluster's order and marks them SUBMITTED, drawn by this node:
  // a render moved from PENDING once is drawn once. Rows another node is claiming at the same moment are skipped (not
  // waited for), so two nodes freeing a slot together take the first and the second render, not the first twice.
  const claim = SqlSchema.findAll({
    Request: Schema.Struct({ nodeId: Schema.String, limit: Schema.Number }),
    Result: Claimed,
    execute: ({ limit, nodeId }) =>
      sql`WITH ${renderQueueCte(sql, order)},
          next AS (SELECT id, turn, submitted_at FROM render_queue WHERE in_line
                    ORDER BY turn, submitted_at, id LIMIT ${limit + CLAIM_SPARE}),
          picked AS (SELECT j.id, next.turn FROM render_jobs j JOIN next ON next.id = j.id WHERE j.state = 'PENDING'
                      ORDER BY next.turn, next.submitted_at, next.id LIMIT ${limit} FOR UPDATE OF j SKIP LOCKED),
          claimed AS (UPDATE render_jobs j SET state = 'SUBMITTED', attempt = j.attempt + 1, drawn_by = ${nodeId}
                        FROM picked WHERE j.id = picked.id AND j.state = 'PENDING'
                      RETURNING j.id, j.workspace_id, j.submitted_at, picked.turn,
                                coalesce(extract(epoch FROM now() - j.in_line_at), 0)::float8 AS waited_seconds)
          SELECT id, workspace_id, waited_seconds FROM claimed ORDER BY turn, submitted_at, id`
  })
  // A runner starting to wait puts its render in line: back to PENDING from a drawing state, unless a live node's slot
  // draws it now (a Start delivered again after its node died, while another node still draws the render). This
  // node's own mark with no draw here behind it is stale (a runner running again after the database came back).
  const line = SqlSchema.void({
    Request: Schema.Struct({ ...ById.fields, nodeId: Schema.String, drawingHere: Schema.Boolean }),
    execute: ({ drawingHere, id, nodeId, workspaceId }) =>
      sql`WITH mark AS (
            SELECT id, drawn_by IS NULL OR drawn_by NOT IN ${liveNodes(sql)}
                   OR (drawn_by = ${nodeId} AND NOT ${sql.literal(drawingHere ? "true" : "false")}) AS stale
              FROM render_jobs WHERE id = ${id} AND workspace_id = ${workspaceId})
          UPDATE render_jobs j SET in_line_at = now(),
                 state = CASE WHEN mark.stale THEN 'PENDING' ELSE j.state END,
                 drawn_by = CASE WHEN mark.stale THEN NULL ELSE j.drawn_by END
            FROM mark WHERE j.id = mark.id AND (j.state = 'PENDING' OR j.state IN ${sql.literal(DRAWING_STATES_SQL)})`
  })
  // A draw of this node that stopped without ending its render (interrupted, or died of a defect): it waits again.
  const putBack = SqlSchema.void({
    Request: Schema.Struct({ id: Schema.String, nodeId: Schema.String }),
    execute: ({ id, nodeId }) =>
      sql`UPDATE render_jobs SET state = 'PENDING', drawn_by = NULL
          WHERE id = ${id} AND drawn_by = ${nodeId} AND state IN ${sql.literal(DRAWING_STATES_SQL)}`
  })
  // Claimed by this node but never handed to a draw here (the claim's answer lost on its way back): they wait again.
  const strays = SqlSchema.void({
    Request: Schema.Struct({ nodeId: Schema.String, drawing: Ids }),
    execute: ({ drawing, nodeId }) =>
      sql`UPDATE render_jobs SET state = 'PENDING', drawn_by = NULL
          WHERE drawn_by = ${nodeId} AND state = 'SUBMITTED' AND NOT (${sql.in("id", drawing)})`
  })
  const fromDeadNodes = SqlSchema.void({
    Request: Ids,
    execute: (ids) =>
      sql`UPDATE render_jobs SET state = 'PENDING', drawn_by = NULL
          WHERE ${sql.in("id", ids)} AND state IN ${sql.literal(DRAWING_STATES_SQL)}
            AND drawn_by IS NOT NULL AND drawn_by NOT IN ${liveNodes(sql)}`
  })
  const ended = SqlSchema.findAll({
    Request: Ids,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (ids) =>
      sql`SELECT id FROM render_jobs WHERE ${sql.in("id", ids)} AND state IN ${sql.literal(TERMINAL_STATES_SQL)}`
  })
  const ahead = SqlSchema.single({
    Request: ById,
    Result: RenderAhead,
    execute: ({ id, workspaceId }) => aheadOf(sql, order, workspaceId, id)
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
    /** The first `limit` renders in line in the cluster's order, now drawn by this node (`nodeId`). */
    claim: (nodeId: string, limit: number) => limit <= 0 ? Effect.succeed([]) : Effect.orDie(claim({ nodeId, limit })),
    /** Of these renders, the ones that ended while they waited (nothing left to draw). */
    ended: (ids: ReadonlyArray<string>) =>
      ids.length === 0 ? Effect.succeed([]) : Effect.map(Effect.orDie(ended(ids)), (rows) => rows.map((r) => r.id)),
    /** Its runner waits for this render: in line, and a render a dead node was drawing waits again at its place. */
    line: (workspaceId: WorkspaceId, id: string, nodeId: string, drawingHere: boolean) =>
      Effect.orDie(line({ workspaceId, id, nodeId, drawingHere })),
    putBack: (id: string, nodeId: string) => Effect.orDie(putBack({ id, nodeId })),
    /** This node's claims that no draw here holds (`drawing` are the ones it draws) wait again. */
    strays: (nodeId: string, drawing: ReadonlyArray<string>) => Effect.orDie(strays({ nodeId, drawing })),
    /** Of these renders, the ones a node that died was drawing wait again, at their place in their workspace's line. */
    fromDeadNodes: (ids: ReadonlyArray<string>) => ids.length === 0 ? Effect.void : Effect.orDie(fromDeadNodes(ids)),
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
