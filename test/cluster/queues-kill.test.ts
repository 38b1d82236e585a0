import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Api, listeningChannel, newList, packageBody, workspace } from "../queues/QueueDesk.js"
import { client } from "../support/Client.js"
import { startCluster, type TestCluster } from "../support/Cluster.js"
import { query } from "../support/Database.js"
import type { TestNode } from "../support/Node.js"
import { defaultShardHolders } from "./ShardHolders.js"

const WORKSPACES = 4
const LISTS_PER_WORKSPACE = 5
const PACKAGES = 100
const WINDOW_MS = 10_000
// Every package is created before the first is due, with room for a loaded machine.
const LEAD_MS = 20_000
const FIRED_BEFORE_KILL = 20

let cluster: TestCluster

beforeAll(async () => {
  cluster = await startCluster("queues_kill", { nodes: 3, sharedDataDir: true })
}, 90_000)

afterAll(() => cluster?.stop())

type Package = {
  id: string
  queue_id: string
  state: string
  scheduled_for: Date
  fired_at: Date | null
  ingest_event_id: string | null
}

const packagesNow = () =>
  query<Package>(
    cluster.db.url,
    "SELECT id, queue_id, state, scheduled_for, fired_at, ingest_event_id FROM queue_packages"
  )

const until = async <A>(what: string, read: () => Promise<A>, done: (a: A) => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms: ${JSON.stringify(value)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Workspaces (each made through a different node) with their lists; the very first list has a listening channel. */
const arrangeLists = async () => {
  const lists: Array<{ api: Api; queueId: string }> = []
  let listeningChannelId = ""
  for (let w = 0; w < WORKSPACES; w++) {
    const ws = await workspace(cluster.nodes[w % cluster.nodes.length]!, `Desk ${w + 1}`)
    for (let l = 0; l < LISTS_PER_WORKSPACE; l++) {
      const list = await newList(ws.api, `Desk ${w + 1} list ${l + 1}`)
      // Its packages are sent through the nodes in turn: the node answering is often not the one holding the list.
      lists.push({ api: client(cluster.nodes[(w + l) % cluster.nodes.length]!, ws.apiKey), queueId: list.id })
    }
    if (w === 0) listeningChannelId = await listeningChannel(ws.api, lists[0]!.queueId, { name: "Shorts" })
  }
  return { lists, listeningQueueId: lists[0]!.queueId, listeningChannelId }
}

describe("three nodes, 100 packages due within ten seconds, one node SIGKILLed while they fire", () => {
  it("every package fires exactly once: FIRED, one ingest event, one job per listening channel", async () => {
    const { lists, listeningChannelId, listeningQueueId } = await arrangeLists()
    // Package i goes to list i mod 20 and is due i × 100 ms after the first: every list has packages due all through
    // the window, so whichever node dies holds packages still to fire. The listening list's packages share their
    // content, so their jobs share one render (the render is not what this test is about).
    const creating = Date.now()
    const firstDue = creating + LEAD_MS
    const dueAt = (i: number) => new Date(firstDue + Math.floor((i * WINDOW_MS) / PACKAGES)).toISOString()
    const created: Array<{ id: string; queueId: string }> = []
    const queue = Array.from({ length: PACKAGES }, (_, i) => i)
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const { api, queueId } = lists[i % lists.length]!
        const r = await api.post(
          `/v1/queues/${queueId}/packages`,
          packageBody({ title: `Post ${i}`, scheduledFor: dueAt(i) })
        )
        expect(r.status, r.text).toBe(201)
        created.push({ id: r.body.package.id, queueId })
      }
    }))
    const createdIn = Date.now() - creating
    expect(Date.now(), "every package was created before the first was due").toBeLessThan(firstDue)

    const before = await until(
      "the first packages fired",
      packagesNow,
      (rows) => rows.filter((p) => p.state === "FIRED").length >= FIRED_BEFORE_KILL,
      LEAD_MS + WINDOW_MS + 10_000
    )
    // The victim: the node holding the shards of the most lists that still have packages to fire.
    const shards = new Map(
      (await query<{ entity_id: string; shard_id: string }>(
        cluster.db.url,
        "SELECT DISTINCT entity_id, shard_id FROM cluster_messages WHERE entity_type = 'PostList'"
      )).map((r) => [r.entity_id, r.shard_id])
    )
    const holders = await defaultShardHolders(cluster.db.url, cluster.nodes)
    const waiting = [...new Set(before.filter((p) => p.state === "SCHEDULED").map((p) => p.queue_id))]
    const victim = cluster.nodes.reduce((best, node) => {
      const held = (n: TestNode) => waiting.filter((q) => holders.get(shards.get(q)!) === n).length
      return held(node) > held(best) ? node : best
    })
    const cutOffLists = waiting.filter((q) => holders.get(shards.get(q)!) === victim)
    expect(cutOffLists.length, "the node killed holds lists with packages still to fire").toBeGreaterThan(0)
    await cluster.kill(victim)
    const killedAt = Date.now()
    const cutOff = (await packagesNow()).filter((p) => p.state === "SCHEDULED" && cutOffLists.includes(p.queue_id))

    const rows = await until("every package fired", packagesNow, (all) => all.every((p) => p.state === "FIRED"), 60_000)
    const lateness = (p: Package) => p.fired_at!.getTime() - p.scheduled_for.getTime()
    console.log(
      `queues under SIGKILL: ${PACKAGES} packages created in ${createdIn} ms; killed with ${
        before.filter((p) => p.state === "FIRED").length
      } fired, ` +
        `${cutOff.length} packages of ${cutOffLists.length} lists on the dead node; all fired ${
          Date.now() - killedAt
        } ms ` +
        `after the kill; the cut-off ones up to ${
          Math.max(...cutOff.map((p) => lateness((rows.find((r) => r.id === p.id))!)))
        } ms late, ` +
        `the others up to ${Math.max(...rows.filter((r) => !cutOff.some((p) => p.id === r.id)).map(lateness))} ms`
    )

    expect(rows.map((p) => p.id).sort()).toEqual(created.map((p) => p.id).sort())
    expect(rows.filter((p) => p.fired_at === null || lateness(p) < 0 || p.ingest_event_id === null)).toEqual([])

    // One event per package, the one the package names, whatever ran twice.
    const events = await query<{ id: string; event_id: string; status: string; origin: string }>(
      cluster.db.url,
      "SELECT id, event_id, status, origin FROM ingest_events"
    )
    expect(events).toHaveLength(PACKAGES)
    const eventOf = new Map(events.map((e) => [e.event_id, e]))
    expect(rows.filter((p) => eventOf.get(`package:${p.id}`)?.id !== p.ingest_event_id)).toEqual([])
    expect(events.every((e) => e.origin === "manual")).toBe(true)
    const listening = rows.filter((p) => p.queue_id === listeningQueueId)
    expect(events.filter((e) => e.status === "ACCEPTED").map((e) => e.id).sort())
      .toEqual(listening.map((p) => p.ingest_event_id).sort())

    // One job per package of the listening list, on its one channel; none for the lists nobody listens to.
    const jobs = await query<{ ingest_event_id: string; channel_id: string }>(
      cluster.db.url,
      "SELECT ingest_event_id, channel_id FROM jobs"
    )
    expect(jobs.map((j) => [j.ingest_event_id, j.channel_id]).sort())
      .toEqual(listening.map((p) => [p.ingest_event_id, listeningChannelId]).sort())
  }, 110_000)
})
