import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { newUlid } from "../../src/domain/Ulid.js"
import { createTestDatabase } from "../../test/support/Database.js"
import { startNode, type TestNode } from "../../test/support/Node.js"
import { type Receiver, startReceiver } from "../../test/support/Receiver.js"
import { call, log, sleep } from "./Common.js"
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

/** A fresh database, `count` compiled nodes on one DATA_DIR (the first migrates alone), and a webhook receiver. */
export const startFairnessCluster = async (label: string, count: number): Promise<FairnessCluster> => {
  const database = await createTestDatabase(label)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-fairness-"))
  const receiver = await startReceiver()
  const env = { ALLOW_PRIVATE_URLS: "true" }
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

/**
 * Videos finished per minute across the renders of these workspaces since `since`, their median drawing time, and how
 * many were drawing at once on average (their drawing time over the span): where a slower pace comes from, renders
 * drawn slower (the CPU shared with other work) or slots left idle between renders.
 */
export const renderPace = async (db: BenchDatabase, workspaceIds: ReadonlyArray<string>, since: Date) => {
  const [row] = await db.rows<{
    n: number
    first: number
    last: number
    last_start: number
    done_by_last_start: number
    median: number
    drawing: number
    drawing_while_waiting: number | null
    slots: number
  }>(
    `WITH r AS (SELECT started_at, finished_at FROM render_jobs
                 WHERE workspace_id = ANY($1) AND state = 'COMPLETED' AND submitted_at >= $2),
          w AS (SELECT min(started_at) AS first, max(started_at) AS last FROM r)
     SELECT count(*)::int AS n,
            (extract(epoch FROM min(started_at)) * 1000)::float8 AS first,
            (extract(epoch FROM max(finished_at)) * 1000)::float8 AS last,
            (extract(epoch FROM max(started_at)) * 1000)::float8 AS last_start,
            count(*) FILTER (WHERE finished_at <= (SELECT max(started_at) FROM r))::int AS done_by_last_start,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - started_at)) * 1000)::float8 AS median,
            (sum(extract(epoch FROM finished_at - started_at)) * 1000)::float8 AS drawing,
            (sum(extract(epoch FROM least(finished_at, w.last) - greatest(started_at, w.first)))
               FILTER (WHERE started_at < w.last) * 1000)::float8 AS drawing_while_waiting,
            (SELECT coalesce(sum(slots), 0)::int FROM render_capacity) AS slots
       FROM r, w`,
    [workspaceIds, since]
  )
  const spanMs = row!.last - row!.first
  const waitingMs = row!.last_start - row!.first
  return {
    videos: row!.n,
    perMinute: spanMs > 0 ? row!.n / (spanMs / 60_000) : 0,
    // Until the last render was handed a slot, work waited for every slot: the tail after it (the last videos drawn
    // with slots idle for lack of work, longer with an odd count on two slots) is not the renderers' pace.
    perMinuteWhileWaiting: waitingMs > 0 ? row!.done_by_last_start / (waitingMs / 60_000) : 0,
    medianRenderMs: row!.median,
    drawingAtOnce: spanMs > 0 ? row!.drawing / spanMs : 0,
    // What "taking turns must not cost work" is about: the share of the slots drawing while work waited for them.
    busyWhileWaiting: waitingMs > 0 && row!.slots > 0 ? (row!.drawing_while_waiting ?? 0) / (waitingMs * row!.slots) : 0
  }
}

export const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

export interface TopologyResult {
  readonly nodes: number
  readonly aloneMs: ReadonlyArray<number>
  readonly floodedMs: ReadonlyArray<number>
  readonly medianRenderMs: number
  readonly perMinuteAlone: number
  readonly perMinuteFlooded: number
  readonly medianRenderFloodedMs: number
  readonly perMinuteWhileWaitingAlone: number
  readonly perMinuteWhileWaitingFlooded: number
  readonly drawingAtOnceAlone: number
  readonly drawingAtOnceFlooded: number
  readonly busyWhileWaitingAlone: number
  readonly busyWhileWaitingFlooded: number
  readonly floodVideos: number
  readonly refusedStarts: number
}

/**
 * One topology: B's events alone; A's flood drawn alone (the renderers' pace with one workspace, where the order
 * changes nothing); then A's flood again with B's events sent while it is queued.
 */
export const runTopology = async (nodeCount: number, batches: number, events: number): Promise<TopologyResult> => {
  const cluster = await startFairnessCluster(`bench_fairness_${nodeCount}`, nodeCount)
  try {
    const [entry] = cluster.nodes
    const b = await webhookWorkspace(entry!, cluster.receiver.url)
    const a = await benchWorkspace(entry!, "Flooding A")
    // The first render of a node warms it (fonts, the drawer): not part of either figure.
    await eventToReceiver(entry!, b, cluster.receiver)
    const aloneMs: Array<number> = []
    for (let i = 0; i < events; i++) aloneMs.push(await eventToReceiver(entry!, b, cluster.receiver))
    log(`${nodeCount} node(s): B alone ${aloneMs.join(", ")} ms; A's flood alone (${batches * 8} videos)`)
    const alonePaceSince = new Date()
    const floodAlone = await startFlood(entry!, cluster.db, a, batches)
    await floodAlone.ended
    const paceAlone = await renderPace(cluster.db, [a.workspaceId], alonePaceSince)
    log(`${nodeCount} node(s): flood alone ${paceAlone.perMinute.toFixed(1)} videos/min; flood again with B's events`)
    const floodedSince = new Date()
    const flood = await startFlood(entry!, cluster.db, a, batches)
    const floodedMs: Array<number> = []
    for (let i = 0; i < events; i++) floodedMs.push(await eventToReceiver(entry!, b, cluster.receiver))
    await flood.ended
    const paceFlooded = await renderPace(cluster.db, [a.workspaceId, b.workspaceId], floodedSince)
    log(
      `${nodeCount} node(s): B under the flood ${floodedMs.join(", ")} ms; ${
        paceFlooded.perMinute.toFixed(1)
      } videos/min`
    )
    return {
      nodes: nodeCount,
      aloneMs,
      floodedMs,
      medianRenderMs: paceAlone.medianRenderMs,
      perMinuteAlone: paceAlone.perMinute,
      perMinuteFlooded: paceFlooded.perMinute,
      medianRenderFloodedMs: paceFlooded.medianRenderMs,
      perMinuteWhileWaitingAlone: paceAlone.perMinuteWhileWaiting,
      perMinuteWhileWaitingFlooded: paceFlooded.perMinuteWhileWaiting,
      drawingAtOnceAlone: paceAlone.drawingAtOnce,
      drawingAtOnceFlooded: paceFlooded.drawingAtOnce,
      busyWhileWaitingAlone: paceAlone.busyWhileWaiting,
      busyWhileWaitingFlooded: paceFlooded.busyWhileWaiting,
      floodVideos: flood.videos,
      refusedStarts: floodAlone.refusedStarts + flood.refusedStarts
    }
  } finally {
    await cluster.stop()
  }
}
