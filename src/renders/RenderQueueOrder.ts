import type { SqlClient, Statement } from "@effect/sql"
import { Effect } from "effect"
import { AppConfig, type RenderOrder } from "../Config.js"

/** The order this node serves the queue in: the fair one unless a test asks for arrival order (TEST_RENDER_ORDER). */
export const renderOrder = Effect.map(AppConfig, (settings) => settings.renderOrder ?? "fair")

/** The states of a render that holds a slot: drawing, or given its slot and about to draw. */
export const DRAWING_STATES_SQL = "('SUBMITTED', 'RENDERING', 'DOWNLOADING', 'STORED')"

/** A node that has not refreshed its entry in `render_capacity` for this long offers nothing and draws nothing. */
export const LIVE_WINDOW_SECONDS = 15

/** The ids of the nodes alive now (their render capacity refreshed within the window), as a subquery. */
export const liveNodes = (sql: SqlClient.SqlClient) =>
  sql`(SELECT node_id FROM render_capacity WHERE heartbeat_at > now() - make_interval(secs => ${LIVE_WINDOW_SECONDS}))`

/**
 * The cluster's render queue in its fair order, as a CTE named `render_queue` (one row per PENDING render). Each
 * workspace takes turns: a render's `turn` is how many slots its workspace holds now plus its place in its
 * workspace's own line (pipeline renders before direct exports, then priority, then arrival). The queue is served by
 * (`turn`, `submitted_at`, `id`): a workspace with one video waits behind at most one video of each other workspace
 * however long their lines are. Read from the rows themselves, the order survives any node's death. A render is
 * `in_line` once its runner waits for it: only those are drawn (RenderQueue.claim), by any node with a free slot.
 * With `order` "arrival" (TEST_RENDER_ORDER, to measure what the turns cost) the `turn` is the priority alone, so the
 * same queries serve the order before the turns: priority, then arrival, whoever's the render is.
 */
export const renderQueueCte = (sql: SqlClient.SqlClient, order: RenderOrder) =>
  sql`render_queue AS (
    SELECT q.id, q.workspace_id, q.origin = 'export' AS is_export, q.submitted_at, q.in_line_at IS NOT NULL AS in_line,
           ${order === "arrival" ? arrivalTurn(sql) : fairTurn(sql)} AS turn
      FROM render_jobs q
      ${order === "arrival" ? sql`` : drawingPerWorkspace(sql)}
     WHERE q.state = 'PENDING')`

const fairTurn = (sql: SqlClient.SqlClient) =>
  sql`coalesce(d.n, 0) + row_number() OVER (
             PARTITION BY q.workspace_id ORDER BY q.origin = 'export', q.priority DESC, q.submitted_at, q.id)`

const arrivalTurn = (sql: SqlClient.SqlClient) => sql`-q.priority::bigint`

const drawingPerWorkspace = (sql: SqlClient.SqlClient) =>
  sql`LEFT JOIN (SELECT workspace_id, count(*) AS n FROM render_jobs
                  WHERE state IN ${sql.literal(DRAWING_STATES_SQL)} GROUP BY workspace_id) d
        ON d.workspace_id = q.workspace_id`

/**
 * What is served before the waiting render `me` (an alias of `render_queue`) that `where` picks, split by whose it is;
 * a render not waiting has nothing ahead.
 */
export const aheadCounts = (sql: SqlClient.SqlClient, where: Statement.Fragment) =>
  sql`SELECT count(*) FILTER (WHERE w.workspace_id <> me.workspace_id)::int AS other_workspaces,
             count(*) FILTER (WHERE w.workspace_id = me.workspace_id AND NOT w.is_export)::int AS own_pipeline,
             count(*) FILTER (WHERE w.workspace_id = me.workspace_id AND w.is_export)::int AS own_exports
        FROM render_queue me
        JOIN render_queue w ON (w.turn, w.submitted_at, w.id) < (me.turn, me.submitted_at, me.id)
       WHERE ${where}`

/** Ahead of one waiting render of this workspace. */
export const aheadOf = (sql: SqlClient.SqlClient, order: RenderOrder, workspaceId: string, id: string) =>
  sql`WITH ${renderQueueCte(sql, order)} ${aheadCounts(sql, sql`me.id = ${id} AND me.workspace_id = ${workspaceId}`)}`
