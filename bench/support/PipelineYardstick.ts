import { call, sleep } from "./Common.js"
import type { BenchDatabase, BenchWorkspace } from "./PipelineSetup.js"

const POLL_MS = 100
const ENDED = ["COMPLETED", "PARTIAL", "FAILED", "TIMED_OUT", "CANCELLED"]

export interface ExportRun {
  readonly renders: number
  /** From the first 202 until the last render finished, in ms. */
  readonly wallMs: number
  /** Starts answered 503 (the render queue is full), each retried. */
  readonly refusedStarts: number
  /** Exports whose poll says `succeeded` at the end. */
  readonly succeeded: number
  /** Each export's final poll status, in start order. */
  readonly statuses: ReadonlyArray<string>
}

type Node = { readonly url: string }
type ExportBody = Record<string, unknown>

/**
 * The body of a direct export drawing what one pipeline render drew: its build with an explicit version, its content,
 * its one output, and the yardstick workspace's brand in place of the pipeline's (both are a bare "House").
 */
const exportBodiesOf = async (node: Node, sourceKey: string, renderJobIds: ReadonlyArray<string>, brandId: string) =>
  Promise.all(renderJobIds.map(async (id): Promise<ExportBody> => {
    const { package: drawn } = (await call(`${node.url}/v1/render-jobs/${id}/package`, "GET", sourceKey)).json
    const [output] = drawn.options.outputs
    return {
      templateId: drawn.template.id,
      variant: drawn.template.variant,
      version: drawn.template.version,
      ...(drawn.brand === null ? {} : { brandId }),
      ratio: output.ratio,
      locale: output.locale,
      data: drawn.content
    }
  }))

/**
 * Starts one export, again while the render queue is full (503). It waits the shorter of
 * the server's `retryAfterSeconds` (a conservative 30 s) and a backoff from 250 ms to 2 s: waiting 30 s would leave
 * slots idle and flatter the pipeline.
 */
const startExport = async (node: Node, key: string, body: ExportBody, onRefused: () => void) => {
  for (let backoffMs = 250;; backoffMs = Math.min(backoffMs * 2, 2000)) {
    const response = await fetch(`${node.url}/v1/direct-export/video`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    const text = await response.text()
    if (response.status === 202) return { jobId: JSON.parse(text).jobId as string, acceptedAt: Date.now() }
    if (response.status !== 503) throw new Error(`export start: ${response.status} ${text}`)
    onRefused()
    const retryAfterMs = Number(JSON.parse(text)?.error?.retryAfterSeconds ?? 1) * 1000
    await sleep(Math.min(retryAfterMs, backoffMs))
  }
}

/**
 * An export's status once its entity recorded the end: until then the poll says `rendering` even when the render row
 * already finished, which a loaded machine shows for a moment.
 */
const finalStatus = async (node: Node, key: string, jobId: string, deadline: number): Promise<string> => {
  for (;;) {
    const status = (await call(`${node.url}/v1/direct-export/video/${jobId}`, "GET", key)).json.status as string
    if (status !== "queued" && status !== "rendering") return status
    if (Date.now() > deadline) return status
    await sleep(POLL_MS)
  }
}

/**
 * The yardstick of `npm run bench:pipeline`: the pipeline's renders drawn again through direct export in another
 * workspace, all started as fast as the API accepts, timed from the first 202 until the last render finished.
 */
export const exportSameRenders = async (
  node: Node,
  db: BenchDatabase,
  source: { readonly key: string; readonly renderJobIds: ReadonlyArray<string> },
  target: BenchWorkspace,
  timeoutMs = 15 * 60_000
): Promise<ExportRun> => {
  const bodies = await exportBodiesOf(node, source.key, source.renderJobIds, target.brandId)
  let refusedStarts = 0
  let startsDone = false
  const starting = Promise.all(bodies.map((body) => startExport(node, target.key, body, () => refusedStarts++)))
    .finally(() => (startsDone = true))
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const [row] = await db.rows<{ ended: number }>(
      "SELECT count(*) FILTER (WHERE state = ANY($2))::int AS ended FROM render_jobs WHERE workspace_id = $1",
      [target.workspaceId, ENDED]
    )
    if (startsDone && row!.ended >= bodies.length) break
    if (Date.now() > deadline) throw new Error(`exports still rendering after ${timeoutMs} ms`)
    await sleep(POLL_MS)
  }
  const started = await starting
  const firstAcceptedAt = Math.min(...started.map((s) => s.acceptedAt))
  const [last] = await db.rows<{ at: number }>(
    "SELECT (extract(epoch FROM max(finished_at)) * 1000)::float8 AS at FROM render_jobs WHERE workspace_id = $1",
    [target.workspaceId]
  )
  const polls = await Promise.all(started.map(({ jobId }) => finalStatus(node, target.key, jobId, deadline)))
  return {
    renders: bodies.length,
    wallMs: last!.at - firstAcceptedAt,
    refusedStarts,
    succeeded: polls.filter((status) => status === "succeeded").length,
    statuses: polls
  }
}
