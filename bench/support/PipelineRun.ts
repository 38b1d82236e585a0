import { ulid } from "ulid"
import { call, sleep } from "./Common.js"
import { type BenchDatabase, eventContent, type PipelineTarget } from "./PipelineSetup.js"

const POLL_MS = 100
const RENDERING = ["ACCEPTED", "AWAITING_RENDERING"]

export interface PipelineRun {
  readonly events: number
  /** Epoch ms of the first 202 answer (this process's clock; PostgreSQL runs on the same machine). */
  readonly firstAcceptedAt: number
  /** From the first 202 until the last post was written (due), in ms. */
  readonly wallMs: number
  /** Jobs by status once none is rendering any more. */
  readonly statuses: Readonly<Record<string, number>>
  readonly jobs: number
  /** Jobs with exactly one post; every job should have one. */
  readonly jobsWithOnePost: number
  readonly distinctRenders: number
  /** Per job with a post: its post's creation minus its render's `finished_at`, both on the database's clock, in ms. */
  readonly latenciesMs: ReadonlyArray<number>
  /** The renders the pipeline drew, for the yardstick to draw again. */
  readonly renderJobIds: ReadonlyArray<string>
  /** `GET /v1/renders/quota` used, after the run. */
  readonly quotaUsed: number
}

/** Sends every event at once and returns the epoch ms of the first 202 (each must be accepted). */
const sendAll = async (node: { url: string }, target: PipelineTarget, events: number) => {
  let firstAcceptedAt = Infinity
  await Promise.all(Array.from({ length: events }, async (_, i) => {
    const { json } = await call(`${node.url}/v1/stream`, "POST", target.key, {
      streamId: target.streamId,
      eventId: ulid(),
      occurredAt: new Date().toISOString(),
      data: eventContent(i)
    })
    firstAcceptedAt = Math.min(firstAcceptedAt, Date.now())
    if (json.status !== "accepted" || json.matched?.length !== target.channelIds.length) {
      throw new Error(`event ${i} not accepted on every channel: ${JSON.stringify(json)}`)
    }
  }))
  return firstAcceptedAt
}

/** Polls the jobs every 100 ms until all `expected` exist and none is still in the rendering stage. */
const settled = async (db: BenchDatabase, workspaceId: string, expected: number, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const rows = await db.rows<{ status: string; n: number }>(
      "SELECT status, count(*)::int AS n FROM jobs WHERE workspace_id = $1 GROUP BY status",
      [workspaceId]
    )
    const statuses = Object.fromEntries(rows.map((r) => [r.status, r.n]))
    const total = rows.reduce((sum, r) => sum + r.n, 0)
    if (total >= expected && rows.every((r) => !RENDERING.includes(r.status))) return statuses
    if (Date.now() > deadline) {
      throw new Error(`jobs still rendering after ${timeoutMs} ms: ${JSON.stringify(statuses)}`)
    }
    await sleep(POLL_MS)
  }
}

interface JobRow {
  readonly render_job_id: string | null
  readonly posts: number
  readonly post_at: number | null
  readonly render_finished_at: number | null
}

/**
 * The core of `npm run bench:pipeline`: `events` events with distinct content to the target's stream, as fast as
 * possible, then waits until every job has left the rendering stage and reads what the tables say about it.
 */
export const runPipeline = async (
  node: { url: string },
  db: BenchDatabase,
  target: PipelineTarget,
  events: number,
  timeoutMs = 15 * 60_000
): Promise<PipelineRun> => {
  const expected = events * target.channelIds.length
  const firstAcceptedAt = await sendAll(node, target, events)
  const statuses = await settled(db, target.workspaceId, expected, timeoutMs)
  const jobs = await db.rows<JobRow>(
    `SELECT j.render_job_id,
            (SELECT count(*)::int FROM posts p WHERE p.job_id = j.id) AS posts,
            (SELECT extract(epoch FROM max(p.created_at)) * 1000 FROM posts p WHERE p.job_id = j.id)::float8 AS post_at,
            (extract(epoch FROM r.finished_at) * 1000)::float8 AS render_finished_at
       FROM jobs j LEFT JOIN render_jobs r ON r.id = j.render_job_id AND r.workspace_id = j.workspace_id
      WHERE j.workspace_id = $1`,
    [target.workspaceId]
  )
  const latenciesMs = jobs.flatMap((j) =>
    j.post_at !== null && j.render_finished_at !== null ? [j.post_at - j.render_finished_at] : []
  )
  const lastPostAt = Math.max(...jobs.map((j) => j.post_at ?? -Infinity))
  const renderJobIds = [...new Set(jobs.flatMap((j) => (j.render_job_id === null ? [] : [j.render_job_id])))]
  const quota = (await call(`${node.url}/v1/renders/quota`, "GET", target.key)).json.quota
  return {
    events,
    firstAcceptedAt,
    wallMs: lastPostAt - firstAcceptedAt,
    statuses,
    jobs: jobs.length,
    jobsWithOnePost: jobs.filter((j) => j.posts === 1).length,
    distinctRenders: renderJobIds.length,
    latenciesMs,
    renderJobIds,
    quotaUsed: quota.used
  }
}

/**
 * How many renders of the workspace were drawing at once on average over `wallMs`: their summed `started_at` to
 * `finished_at` spans over the wall. Near the slot count, the slots were kept busy.
 */
export const rendersAtOnce = async (db: BenchDatabase, workspaceId: string, wallMs: number) => {
  const [row] = await db.rows<{ busy_ms: number }>(
    `SELECT (coalesce(sum(extract(epoch FROM finished_at - started_at)), 0) * 1000)::float8 AS busy_ms
       FROM render_jobs WHERE workspace_id = $1`,
    [workspaceId]
  )
  return row!.busy_ms / wallMs
}

/** The value below which `p` % of the samples fall (nearest rank). */
export const percentile = (samples: ReadonlyArray<number>, p: number) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100 * sorted.length) - 1))]!
}
