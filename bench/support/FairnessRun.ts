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
 * A fresh database, `count` compiled nodes on one DATA_DIR (the first migrates alone) serving the render queue in
 * `order`, and a webhook receiver.
 */
export const startFairnessCluster = async (
  label: string,
  count: number,
  order: RenderOrder
): Promise<FairnessCluster> => {
  const database = await createTestDatabase(label)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-fairness-"))
  const receiver = await startReceiver()
  const env = { ALLOW_PRIVATE_URLS: "true", TEST_RENDER_ORDER: order }
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
    nodes.push(await startNode({ databaseUrl: database.url, dataDir, env, compiled: true }))
    nodes.push(
      ...await Promise.all(
        Array.from({ length: count - 1 }, () => startNode({ databaseUrl: database.url, dataDir, env, compiled: true }))
      )
    )
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

/** One event of B, from just before its POST until the receiver has its post; in ms. */
export const eventToReceiver = async (node: TestNode, b: BenchWorkspace & { streamId: string }, receiver: Receiver) => {
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
  return Date.now() - startedAt
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
  readonly floodedMs: ReadonlyArray<number>
  /** B's first event under the flood in each run (sent while the flood was queued; the later ones come after it). */
  readonly firstFloodedMs: ReadonlyArray<number>
  readonly pace: RenderPace
  readonly refusedStarts: number
  /** The machine's 1-min load average as the order's run began and ended: the orders run one after the other. */
  readonly load: readonly [number, number]
}

export interface TopologyResult {
  readonly nodes: number
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
const runOrder = async (nodeCount: number, order: RenderOrder, batches: number, events: number) => {
  const loadBefore = os.loadavg()[0]!
  const cluster = await startFairnessCluster(`bench_fairness_${nodeCount}_${order}`, nodeCount, order)
  try {
    const [entry] = cluster.nodes
    const b = await webhookWorkspace(entry!, cluster.receiver.url)
    const a = await benchWorkspace(entry!, "Flooding A")
    // The first render of a node warms it (fonts, the drawer): not part of either figure.
    await eventToReceiver(entry!, b, cluster.receiver)
    const aloneMs: Array<number> = []
    for (let i = 0; i < events; i++) aloneMs.push(await eventToReceiver(entry!, b, cluster.receiver))
    log(`${nodeCount} node(s), ${order} order: B alone ${aloneMs.join(", ")} ms; A's flood (${batches * 8} videos)`)
    const since = new Date()
    const flood = await startFlood(entry!, cluster.db, a, batches)
    const floodedMs: Array<number> = []
    for (let i = 0; i < events; i++) floodedMs.push(await eventToReceiver(entry!, b, cluster.receiver))
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
      floodedMs,
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
    floodedMs: runs.flatMap((r) => r.floodedMs),
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
  batches: number,
  events: number,
  rounds = 1
): Promise<TopologyResult> => {
  const runs: Array<OrderResult> = []
  for (let round = 0; round < rounds; round++) {
    const orders: ReadonlyArray<RenderOrder> = round % 2 === 0 ? ["arrival", "fair"] : ["fair", "arrival"]
    for (const order of orders) runs.push(await runOrder(nodeCount, order, batches, events))
  }
  const of = (order: RenderOrder) => pooled(runs.filter((r) => r.order === order))
  return { nodes: nodeCount, floodVideos: batches * 8, arrival: of("arrival"), fair: of("fair"), runs }
}
