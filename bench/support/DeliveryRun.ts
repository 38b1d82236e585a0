import { sleep } from "./Common.js"
import { arm, type DeliveryTarget, seedPosts } from "./DeliverySetup.js"
import type { BenchDatabase } from "./PipelineSetup.js"

const POLL_MS = 100

export interface BurstPlan {
  readonly bursts: number
  readonly perBurst: number
  readonly everyMs: number
  /** From arming the posts to the first burst's due time. */
  readonly leadMs?: number
  readonly timeoutMs?: number
}

export interface DeliveryRun {
  readonly posts: number
  /** Calls the receiver got, and how many distinct webhook-ids they carried. */
  readonly calls: number
  readonly webhookIds: number
  /** Per post: its delivery's first arrival at the receiver minus the post's `scheduled_for`, in ms. */
  readonly latenciesMs: ReadonlyArray<number>
  /** Time some burst was due and not yet all delivered (the union of each burst's due → last arrival), in s. */
  readonly busySeconds: number
  /** From the first due time to the last arrival, in s. */
  readonly windowSeconds: number
  /** Post states after the run, and posts not carried by exactly one webhook delivery. */
  readonly states: Readonly<Record<string, number>>
  readonly postsNotOnce: number
  /** Webhook-ids that arrived more than once, and arrivals the tables know no delivery for. */
  readonly repeatedIds: number
  readonly unknownIds: number
  readonly deliveryStates: Readonly<Record<string, number>>
  /** Where a post's time went, per stage, in ms (see `stagesOf`). */
  readonly stages: ReadonlyArray<Stage>
}

export interface Stage {
  readonly name: string
  readonly p50Ms: number
  readonly p99Ms: number
}

export const receiverCount = async (receiverUrl: string, path: string) =>
  Number(await (await fetch(`${receiverUrl}/count?path=${encodeURIComponent(path)}`)).text())

const receiverCalls = async (receiverUrl: string, path: string) =>
  (await (await fetch(`${receiverUrl}/calls?path=${encodeURIComponent(path)}`)).json()) as Array<[string, number]>

const countBy = <A>(items: ReadonlyArray<A>, key: (a: A) => string) =>
  items.reduce<Record<string, number>>((n, item) => ({ ...n, [key(item)]: (n[key(item)] ?? 0) + 1 }), {})

/** The length of the union of the intervals, in their unit. */
const unionLength = (intervals: ReadonlyArray<readonly [number, number]>) => {
  let total = 0
  let end = -Infinity
  for (const [from, to] of [...intervals].sort((a, b) => a[0] - b[0])) {
    if (to <= end) continue
    total += to - Math.max(from, end)
    end = to
  }
  return total
}

/** The value below which `p` % of the samples fall (nearest rank). */
export const percentile = (samples: ReadonlyArray<number>, p: number) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100 * sorted.length) - 1))]!
}

interface Moments {
  readonly delivery_id: string
  readonly due: number
  readonly claimed: number | null
  readonly made: number
  readonly sent: number | null
  readonly recorded: number
}

/**
 * The stages of each delivered post from what the tables keep: due (`scheduled_for`) → claimed by a dispatcher (the
 * job's `handover_claimed_at`) → its delivery made and signed (`deliveries.created_at`, its transaction's start) →
 * the call started (the attempt's `started_at`) → arrived at the receiver → its outcome recorded (`updated_at`).
 */
const stagesOf = async (db: BenchDatabase, workspaceId: string, firstArrival: ReadonlyMap<string, number>) => {
  const epoch = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`
  const rows = await db.rows<Moments>(
    `SELECT d.id AS delivery_id, ${epoch("p.scheduled_for")} AS due, ${epoch("j.handover_claimed_at")} AS claimed,
            ${epoch("d.created_at")} AS made, ${epoch("a.started_at")} AS sent, ${epoch("d.updated_at")} AS recorded
       FROM deliveries d JOIN delivery_posts dp ON dp.delivery_id = d.id JOIN posts p ON p.id = dp.post_id
       JOIN jobs j ON j.id = p.job_id LEFT JOIN delivery_attempts a ON a.delivery_id = d.id AND a.attempt = 1
      WHERE d.workspace_id = $1`,
    [workspaceId]
  )
  const stage = (name: string, of: (r: Moments, arrived: number) => number | null): Stage => {
    const samples = rows.flatMap((r) => {
      const arrived = firstArrival.get(r.delivery_id)
      const ms = arrived === undefined ? null : of(r, arrived)
      return ms === null ? [] : [ms]
    })
    return { name, p50Ms: percentile(samples, 50), p99Ms: percentile(samples, 99) }
  }
  return [
    stage("due → claimed", (r) => r.claimed === null ? null : r.claimed - r.due),
    stage("claimed → made and signed", (r) => r.claimed === null ? null : r.made - r.claimed),
    stage("made → call started", (r) => r.sent === null ? null : r.sent - r.made),
    stage("call started → arrived", (r, arrived) => r.sent === null ? null : arrived - r.sent),
    stage("arrived → recorded", (r, arrived) => r.recorded - arrived)
  ]
}

interface PostRow {
  readonly post_id: string
  readonly state: string
  readonly due: number
  readonly deliveries: ReadonlyArray<string>
}

/** The core of `npm run bench:deliveries`, first half: `bursts × perBurst` posts seeded, not due yet. */
export const seedBursts = (db: BenchDatabase, target: DeliveryTarget, plan: BurstPlan) =>
  seedPosts(db, target, plan.bursts * plan.perBurst)

/**
 * Arms the seeded posts so a burst of `perBurst` falls due every `everyMs`, waits until the receiver got a call for
 * each and every post has left SCHEDULED and PUBLISHING, and reads what the receiver and the tables say.
 */
export const runBursts = async (
  db: BenchDatabase,
  target: DeliveryTarget,
  jobIds: ReadonlyArray<string>,
  receiverUrl: string,
  plan: BurstPlan,
  hookPath = "/hooks"
): Promise<DeliveryRun> => {
  const posts = jobIds.length
  const dueTimes = await arm(db, jobIds, plan.perBurst, Date.now() + (plan.leadMs ?? 1000), plan.everyMs)
  const deadline = dueTimes.at(-1)! + (plan.timeoutMs ?? 120_000)
  while (await receiverCount(receiverUrl, hookPath) < posts && Date.now() < deadline) await sleep(POLL_MS)
  // The receiver answered; the states follow once each sender has recorded its group.
  while (
    (await db.rows<{ open: number }>(
        "SELECT count(*)::int AS open FROM posts WHERE workspace_id = $1 AND state IN ('SCHEDULED', 'PUBLISHING')",
        [target.workspaceId]
      ))[0]!.open > 0 && Date.now() < deadline
  ) await sleep(POLL_MS)
  const calls = await receiverCalls(receiverUrl, hookPath)
  const rows = await db.rows<PostRow>(
    `SELECT p.id AS post_id, p.state, (extract(epoch FROM p.scheduled_for) * 1000)::float8 AS due,
            coalesce(array_agg(dp.delivery_id) FILTER (WHERE dp.delivery_id IS NOT NULL), '{}') AS deliveries
       FROM posts p LEFT JOIN delivery_posts dp ON dp.post_id = p.id AND dp.via = 'webhook' AND dp.event = 'post.publish'
      WHERE p.workspace_id = $1 GROUP BY p.id`,
    [target.workspaceId]
  )
  const deliveries = await db.rows<{ state: string }>("SELECT state FROM deliveries WHERE workspace_id = $1", [
    target.workspaceId
  ])

  const firstArrival = new Map<string, number>()
  for (const [id, at] of calls) firstArrival.set(id, Math.min(at, firstArrival.get(id) ?? Infinity))
  const latenciesMs = rows.flatMap((r) => {
    const at = r.deliveries.length === 1 ? firstArrival.get(r.deliveries[0]!) : undefined
    return at === undefined ? [] : [at - r.due]
  })
  const lastArrivalByDue = new Map<number, number>()
  for (const r of rows) {
    const at = r.deliveries.length === 1 ? firstArrival.get(r.deliveries[0]!) : undefined
    if (at !== undefined) lastArrivalByDue.set(r.due, Math.max(at, lastArrivalByDue.get(r.due) ?? -Infinity))
  }
  const known = new Set(rows.flatMap((r) => r.deliveries))
  const lastArrival = Math.max(...calls.map(([, at]) => at))
  return {
    posts,
    calls: calls.length,
    webhookIds: firstArrival.size,
    latenciesMs,
    busySeconds: unionLength([...lastArrivalByDue]) / 1000,
    windowSeconds: (lastArrival - dueTimes[0]!) / 1000,
    states: countBy(rows, (r) => r.state),
    postsNotOnce: rows.filter((r) => r.deliveries.length !== 1 || !firstArrival.has(r.deliveries[0]!)).length,
    repeatedIds: calls.length - firstArrival.size,
    unknownIds: [...firstArrival.keys()].filter((id) => !known.has(id)).length,
    deliveryStates: countBy(deliveries, (d) => d.state),
    stages: await stagesOf(db, target.workspaceId, firstArrival)
  }
}
