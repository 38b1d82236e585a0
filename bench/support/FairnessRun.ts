import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { RenderOrder } from "../../src/Config.js"
import { newUlid } from "../../src/domain/Ulid.js"
import { createTestDatabase } from "../../test/support/Database.js"
import { startNode, type TestNode } from "../../test/support/Node.js"
import { type Receiver, startReceiver } from "../../test/support/Receiver.js"
import { call, log, sleep } from "./Common.js"
import { type RenderPace, renderPace } from "./FairnessPace.js"
import { type BenchDatabase, type BenchWorkspace, benchWorkspace, eventContent, openDatabase } from "./PipelineSetup.js"

const MARKET = "tpl_3a7c91e04b5d"
const POLL_MS = 100
const ENDED = ["COMPLETED", "PARTIAL", "FAILED", "TIMED_OUT", "CANCELLED"]

export interface FairnessCluster {
  readonly nodes: ReadonlyArray<TestNode>
  readonly db: BenchDatabase
  readonly receiver: Receiver
  readonly stop: () => Promise<void>
}

/**
 * Render slots per node: `undefined` leaves a node its default (one per core, as if it had the machine alone).
 * `splitCores` shares this machine's cores among the nodes, as several machines' worth of renderers on one machine:
 * three nodes on two cores get 1, 1 and 0 slots (the last serving the API and every other entity only).
 */
export type NodeSlots = ReadonlyArray<number | undefined>

export const splitCores = (count: number, cores = os.availableParallelism()): NodeSlots =>
  Array.from({ length: count }, (_, i) => Math.floor(cores / count) + (i < cores % count ? 1 : 0))

/**
 * A fresh database, `count` compiled nodes on one DATA_DIR (the first migrates alone) serving the render queue in
 * `order` with `slots`, and a webhook receiver.
 */
export const startFairnessCluster = async (
  label: string,
  count: number,
  order: RenderOrder,
  slots: NodeSlots = []
): Promise<FairnessCluster> => {
  const database = await createTestDatabase(label)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-fairness-"))
  const receiver = await startReceiver()
  const envOf = (i: number) => ({
    ALLOW_PRIVATE_URLS: "true",
    TEST_RENDER_ORDER: order,
    ...(slots[i] === undefined ? {} : { RENDER_SLOTS: String(slots[i]) })
  })
  const nodes: Array<TestNode> = []
  const db = await openDatabase(database.url)
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()))
    await db.close()
    await receiver.stop()
    await database.drop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    const start = (i: number) => startNode({ databaseUrl: database.url, dataDir, env: envOf(i), compiled: true })
    nodes.push(await start(0))
    nodes.push(...await Promise.all(Array.from({ length: count - 1 }, (_, i) => start(i + 1))))
  } catch (error) {
    await stop()
    throw error
  }
  return { nodes, db, receiver, stop }
}

/** Workspace B: one channel handing its posts over by webhook to the receiver, subscribed to a Market move stream. */
export const webhookWorkspace = async (node: TestNode, webhookUrl: string) => {
  const workspace = await benchWorkspace(node, "Single B")
  await call(`${node.url}/admin/workspaces/${workspace.workspaceId}/webhook`, "PUT", node.adminToken, {
    url: webhookUrl
  })
  const { stream } =
    (await call(`${node.url}/v1/streams`, "POST", workspace.key, { name: "B prices", templateId: MARKET })).json
  const { channel } = (await call(`${node.url}/v1/channels`, "POST", workspace.key, {
    name: "B shorts",
    surface: "youtube-shorts",
    deliverByWebhook: true,
    deliverByEmail: false
  })).json
  await call(`${node.url}/v1/channels/${channel.id}/subscriptions`, "POST", workspace.key, {
    kind: "STREAM",
    streamId: stream.id,
    templateVariant: "compact"
  })
  return { ...workspace, streamId: stream.id as string }
}

let eventNumber = 0

/** Where one event of B spent its time, in ms: until its render was queued, waiting for a slot, drawn, handed over. */
export interface EventStages {
  readonly totalMs: number
  readonly toQueueMs: number
  readonly waitMs: number
  readonly drawMs: number
  readonly handOverMs: number
}

/** One event of B, from just before its POST until the receiver has its post, and the stages of its render. */
export const eventToReceiver = async (
  node: TestNode,
  db: BenchDatabase,
  b: BenchWorkspace & { streamId: string },
  receiver: Receiver
): Promise<EventStages> => {
  const before = receiver.calls.length
  const startedAt = Date.now()
  const n = eventNumber++
  await call(`${node.url}/v1/stream`, "POST", b.key, {
    streamId: b.streamId,
    eventId: newUlid(),
    occurredAt: new Date().toISOString(),
    data: eventContent(1000 + n)
  })
  await receiver.waitFor(before + 1, 15 * 60_000)
  const totalMs = Date.now() - startedAt
  const [render] = await db.rows<{ submitted: number; started: number; finished: number }>(
    `SELECT (extract(epoch FROM submitted_at) * 1000)::float8 AS submitted,
            (extract(epoch FROM started_at) * 1000)::float8 AS started,
            (extract(epoch FROM finished_at) * 1000)::float8 AS finished
       FROM render_jobs WHERE workspace_id = $1 AND submitted_at >= $2 ORDER BY submitted_at DESC LIMIT 1`,
    [b.workspaceId, new Date(startedAt)]
  )
  if (render === undefined) return { totalMs, toQueueMs: NaN, waitMs: NaN, drawMs: NaN, handOverMs: NaN }
  return {
    totalMs,
    toQueueMs: render.submitted - startedAt,
    waitMs: render.started - render.submitted,
    drawMs: render.finished - render.started,
    handOverMs: startedAt + totalMs - render.finished
  }
}

export interface Flood {
  readonly videos: number
  readonly refusedStarts: number
  /** Resolves once every video of the flood has ended. */
  readonly ended: Promise<void>
}

/**
 * A's flood: `batches` of eight direct-export videos (distinct content, so none is shared), each batch sent at once and
 * every start retried while A's own queue is full (503), after the shorter of its retryAfterSeconds and 2 s.
 */
export const startFlood = async (
  node: TestNode,
  db: BenchDatabase,
  a: BenchWorkspace,
  batches: number
): Promise<Flood> => {
  let refusedStarts = 0
  // Only this flood's renders count: a flood before it (the pace alone) left its own ended renders in the table.
  const [{ since }] = await db.rows<{ since: Date }>("SELECT now() AS since") as [{ since: Date }]
  const start = async (i: number) => {
    for (;;) {
      const response = await fetch(`${node.url}/v1/direct-export/video`, {
        method: "POST",
        headers: { authorization: `Bearer ${a.key}`, "content-type": "application/json" },
        body: JSON.stringify({
          templateId: MARKET,
          variant: "compact",
          version: "1.0.1",
          ratio: "9x16",
          data: eventContent(i)
        })
      })
      const text = await response.text()
      if (response.status === 202) return
      if (response.status !== 503) throw new Error(`flood start: ${response.status} ${text}`)
      refusedStarts++
      await sleep(Math.min(2000, Number(JSON.parse(text)?.error?.retryAfterSeconds ?? 1) * 1000))
    }
  }
  const videos = batches * 8
  const base = eventNumber
  eventNumber += videos
  const starting = (async () => {
    for (let batch = 0; batch < batches; batch++) {
      await Promise.all(Array.from({ length: 8 }, (_, i) => start(base + batch * 8 + i)))
    }
  })()
  const ended = (async () => {
    await starting
    for (;;) {
      const [row] = await db.rows<{ ended: number }>(
        `SELECT count(*) FILTER (WHERE state = ANY($2))::int AS ended FROM render_jobs
          WHERE workspace_id = $1 AND submitted_at >= $3`,
        [a.workspaceId, ENDED, since]
      )
      if (row!.ended >= videos) return
      await sleep(POLL_MS)
    }
  })()
  // Queued before B sends: at least the first batches are in, or every start was answered.
  await Promise.race([starting, waitQueued(db, a.workspaceId, since, Math.min(videos, 40))])
  return {
    videos,
    get refusedStarts() {
      return refusedStarts
    },
    ended
  }
}

const waitQueued = async (db: BenchDatabase, workspaceId: string, since: Date, n: number) => {
  for (;;) {
    const [row] = await db.rows<{ n: number }>(
      "SELECT count(*)::int AS n FROM render_jobs WHERE workspace_id = $1 AND submitted_at >= $2",
      [workspaceId, since]
    )
    if (row!.n >= n) return
    await sleep(POLL_MS)
  }
}

export const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

/** One order's run: B's events alone and under A's flood (with them among it), and the renderers' pace meanwhile. */
export interface OrderResult {
  readonly order: RenderOrder
  readonly aloneMs: ReadonlyArray<number>
  readonly aloneStages: ReadonlyArray<EventStages>
  readonly floodedMs: ReadonlyArray<number>
  /** Where B's events under the flood spent their time. */
  readonly floodedStages: ReadonlyArray<EventStages>
  /** B's first event under the flood in each run (sent while the flood was queued; the later ones come after it). */
  readonly firstFloodedMs: ReadonlyArray<number>
  readonly pace: RenderPace
  readonly refusedStarts: number
  /** The machine's 1-min load average as the order's run began and ended: the orders run one after the other. */
  readonly load: readonly [number, number]
}

export interface TopologyResult {
  readonly nodes: number
  readonly slots: NodeSlots
  readonly floodVideos: number
  /** Each order's runs pooled (see `pooled`). */
  readonly arrival: OrderResult
  readonly fair: OrderResult
  readonly runs: ReadonlyArray<OrderResult>
}

/**
 * One order on a fresh cluster whose nodes serve the render queue in it (TEST_RENDER_ORDER): B's events alone, then
 * A's flood with B's events sent while it is queued. The workload is the same in both orders; only who is drawn
 * first differs.
 */
const runOrder = async (nodeCount: number, slots: NodeSlots, order: RenderOrder, batches: number, events: number) => {
  const loadBefore = os.loadavg()[0]!
  const cluster = await startFairnessCluster(`bench_fairness_${nodeCount}_${order}`, nodeCount, order, slots)
  try {
    const [entry] = cluster.nodes
    const b = await webhookWorkspace(entry!, cluster.receiver.url)
    const a = await benchWorkspace(entry!, "Flooding A")
    // The first render of a node warms it (fonts, the drawer): not part of either figure.
    await eventToReceiver(entry!, cluster.db, b, cluster.receiver)
    const aloneStages: Array<EventStages> = []
    for (let i = 0; i < events; i++) aloneStages.push(await eventToReceiver(entry!, cluster.db, b, cluster.receiver))
    const aloneMs = aloneStages.map((s) => s.totalMs)
    log(`${nodeCount} node(s), ${order} order: B alone ${aloneMs.join(", ")} ms; A's flood (${batches * 8} videos)`)
    const since = new Date()
    const flood = await startFlood(entry!, cluster.db, a, batches)
    const floodedStages: Array<EventStages> = []
    for (let i = 0; i < events; i++) floodedStages.push(await eventToReceiver(entry!, cluster.db, b, cluster.receiver))
    const floodedMs = floodedStages.map((s) => s.totalMs)
    await flood.ended
    const pace = await renderPace(cluster.db, [a.workspaceId, b.workspaceId], a.workspaceId, since)
    log(
      `${nodeCount} node(s), ${order} order: B under the flood ${floodedMs.join(", ")} ms; ` +
        `${pace.perMinuteWhileWaiting.toFixed(1)} videos/min while the flood waited`
    )
    const load = [loadBefore, os.loadavg()[0]!] as const
    const firstFloodedMs = floodedMs.slice(0, 1)
    return {
      order,
      aloneMs,
      aloneStages,
      floodedMs,
      floodedStages,
      firstFloodedMs,
      pace,
      refusedStarts: flood.refusedStarts,
      load
    } satisfies OrderResult
  } finally {
    await cluster.stop()
  }
}

/** Several runs of one order as one: B's times pooled, the pace figures averaged, the load from first to last. */
const pooled = (runs: ReadonlyArray<OrderResult>): OrderResult => {
  const [first] = runs
  if (runs.length === 1) return first!
  const pace = Object.fromEntries(
    Object.keys(first!.pace).map((key) => {
      const field = key as keyof RenderPace
      return [field, runs.reduce((sum, r) => sum + r.pace[field], 0) / runs.length]
    })
  ) as RenderPace
  return {
    order: first!.order,
    aloneMs: runs.flatMap((r) => r.aloneMs),
    aloneStages: runs.flatMap((r) => r.aloneStages),
    floodedMs: runs.flatMap((r) => r.floodedMs),
    floodedStages: runs.flatMap((r) => r.floodedStages),
    firstFloodedMs: runs.flatMap((r) => r.firstFloodedMs),
    pace,
    refusedStarts: runs.reduce((sum, r) => sum + r.refusedStarts, 0),
    load: [first!.load[0], runs[runs.length - 1]!.load[1]]
  }
}

/**
 * One topology: the same workload in arrival order (the order before the turns) and in the fair order, `rounds`
 * times, which order goes first alternating (arrival, fair, then fair, arrival): the orders run one after the other,
 * and a machine that heats up or calms down during the bench then moves both alike.
 */
export const runTopology = async (
  nodeCount: number,
  slots: NodeSlots,
  batches: number,
  events: number,
  rounds = 1
): Promise<TopologyResult> => {
  const runs: Array<OrderResult> = []
  for (let round = 0; round < rounds; round++) {
    const orders: ReadonlyArray<RenderOrder> = round % 2 === 0 ? ["arrival", "fair"] : ["fair", "arrival"]
    for (const order of orders) runs.push(await runOrder(nodeCount, slots, order, batches, events))
  }
  const of = (order: RenderOrder) => pooled(runs.filter((r) => r.order === order))
  return { nodes: nodeCount, slots, floodVideos: batches * 8, arrival: of("arrival"), fair: of("fair"), runs }
}
