import { Webhook } from "standardwebhooks"
import { Agent, request } from "undici"
import type { BenchDatabase } from "./PipelineSetup.js"

/** As the node's webhook sender: at most 64 calls at once per send, over an Agent of 128 connections. */
const AT_ONCE = 64
const ANSWER_WITHIN_MS = 15_000

export interface PlainRun {
  readonly calls: number
  readonly ok: number
  readonly seconds: number
  /** CPU % of one core this process (the loop) used. */
  readonly cpuPct: number
}

/**
 * The yardstick of `npm run bench:deliveries`: the bodies the hand-over sent (read back from `deliveries`), each
 * signed again with standardwebhooks and POSTed to `url` by a plain loop with the node's HTTP client settings
 * (undici Agent, 64 at once), as fast as the receiver answers.
 */
export const plainLoop = async (
  db: BenchDatabase,
  workspaceId: string,
  secret: string,
  url: string
): Promise<PlainRun> => {
  const rows = await db.rows<{ id: string; body: Buffer }>(
    "SELECT id, body FROM deliveries WHERE workspace_id = $1 AND via = 'webhook' ORDER BY created_at, id",
    [workspaceId]
  )
  const agent = new Agent({
    connections: 128,
    keepAliveTimeout: 10_000,
    headersTimeout: ANSWER_WITHIN_MS,
    bodyTimeout: ANSWER_WITHIN_MS
  })
  const webhook = new Webhook(secret)
  let next = 0
  let ok = 0
  const post = async () => {
    for (let row = rows[next++]; row !== undefined; row = rows[next++]) {
      const now = new Date()
      const body = new Uint8Array(row.body)
      const answer = await request(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": row.id,
          "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
          "webhook-signature": webhook.sign(row.id, now, row.body.toString("utf8"))
        },
        body,
        dispatcher: agent,
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS)
      })
      await answer.body.text()
      if (answer.statusCode >= 200 && answer.statusCode < 300) ok++
    }
  }
  const cpu = process.cpuUsage()
  const started = performance.now()
  await Promise.all(Array.from({ length: AT_ONCE }, post))
  const micros = (performance.now() - started) * 1000
  const used = process.cpuUsage(cpu)
  await agent.close()
  return { calls: rows.length, ok, seconds: micros / 1e6, cpuPct: (used.user + used.system) / micros * 100 }
}
