import { describe, expect, it } from "vitest"
import { admin, type Answer, call, client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import type { TestNode } from "../support/Node.js"
import { useNodes } from "../support/Rig.js"
import { MARKET, newEventId } from "../support/Routes.js"

// `INGEST_FAULT_SECONDS=30` (npm run test:ingest-faults) is the heavier profile: a longer send window.
const sendSeconds = Number(process.env["INGEST_FAULT_SECONDS"] ?? "4")
const senders = 15
// Node 3 dies a third into the window, once it has answered some events: some of its work is committed, some in flight.
const answeredBeforeKill = 15
const killAfterMs = (sendSeconds * 1000) / 3

const { db, nodes } = useNodes({ label: "ingest_multinode", count: 3 })

/** A workspace on node 1 with one stream that two channels listen to, and a sending key. */
const arrange = async (node: TestNode) => {
  const config = await workspaceWithKey(node, ["streams:write", "channels:write", "channels:read", "brands:write"])
  expect((await config.api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const made = await config.api.post("/v1/streams", { name: "Prices", templateId: MARKET, fieldMap: {} })
  expect(made.status, made.text).toBe(201)
  const streamId = made.body.stream.id as string
  for (const name of ["Shorts", "Feed"]) {
    const channel = (await config.api.post("/v1/channels", { name })).body.channel
    const sub = await config.api.post(`/v1/channels/${channel.id}/subscriptions`, { kind: "STREAM", streamId })
    expect(sub.status, sub.text).toBe(201)
  }
  const { apiKey } = await admin(node).key(config.accountId, ["ingest:write"])
  return { workspaceId: config.accountId, streamId, apiKey }
}

const envelope = (streamId: string) => ({
  streamId,
  eventId: newEventId(),
  occurredAt: new Date().toISOString(),
  data: {
    clipData: {
      headline: "Gold climbs to a record",
      figures: [{ label: "Gold", value: 2331.8, unit: "USD", direction: "up" }]
    },
    metaData: { title: "Gold climbs to a record" }
  }
})

interface Sent {
  readonly eventId: string
  /** Connection errors, one per node that could not be reached or dropped the request. */
  readonly errors: Array<{ node: number; message: string }>
  readonly answers: Array<{ node: number; answer: Answer }>
}

const landed = (s: Sent) => s.answers.at(-1)?.answer
const isLanded = (s: Sent) => [200, 202].includes(landed(s)?.status ?? 0)

describe("three nodes on one database, one SIGKILLed while events arrive", () => {
  it("every answered event has exactly one row and one set of jobs; none is lost", async () => {
    const [first, , third] = nodes as [TestNode, TestNode, TestNode]
    const { workspaceId, streamId, apiKey } = await arrange(first)
    const alive = [true, true, true]

    /** Sends one event like a real sender: on a connection error, the same body again to the next node. */
    const send = async (startAt: number): Promise<Sent> => {
      const body = envelope(streamId)
      const sent: Sent = { eventId: body.eventId, errors: [], answers: [] }
      for (let attempt = 0; attempt < 6; attempt++) {
        const index = (startAt + attempt) % nodes.length
        try {
          const answer = await call(nodes[index]!.url, "POST", "/v1/stream", { key: apiKey, body })
          sent.answers.push({ node: index, answer })
          return sent
        } catch (error) {
          sent.errors.push({ node: index, message: String((error as Error).cause ?? error) })
        }
      }
      return sent
    }

    const all: Array<Sent> = []
    let answeredByThird = 0
    let killed: Promise<void> | undefined
    const startedAt = Date.now()
    const windowEnds = startedAt + sendSeconds * 1000
    const sender = async (n: number) => {
      // The window stays open until node 3 is dead, but not forever: a kill that never came fails below.
      while (Date.now() < windowEnds || (killed === undefined && Date.now() < windowEnds + 20_000)) {
        const sent = await send(n % nodes.length)
        all.push(sent)
        if (sent.answers.some((a) => a.node === 2)) answeredByThird++
        if (answeredByThird >= answeredBeforeKill && Date.now() - startedAt >= killAfterMs && killed === undefined) {
          alive[2] = false
          killed = third.kill()
        }
      }
    }
    await Promise.all(Array.from({ length: senders }, (_, n) => sender(n)))
    await killed

    console.log(
      `ingest under SIGKILL: ${all.length} events in ${Date.now() - startedAt} ms, ` +
        `${all.filter((s) => s.errors.length > 0).length} retried after a connection error ` +
        `(${all.filter((s) => s.errors.some((e) => !e.message.includes("ECONNREFUSED"))).length} dropped in flight), ` +
        `${all.filter((s) => landed(s)?.status === 200).length} of them already stored (200 duplicate)`
    )

    // Every event was answered 202 (or 200 duplicate, when the dying node had already stored it).
    const unanswered = all.filter((s) => !isLanded(s)).map((s) => ({
      eventId: s.eventId,
      errors: s.errors,
      last: landed(s)?.text
    }))
    expect(unanswered).toEqual([])
    expect(all.some((s) => s.errors.some((e) => e.node === 2))).toBe(true)

    const events = await query<{ id: string; event_id: string; status: string }>(
      db.url,
      "SELECT id, event_id, status FROM ingest_events WHERE workspace_id = $1",
      [workspaceId]
    )
    const jobs = await query<{ id: string; ingest_event_id: string }>(
      db.url,
      "SELECT id, ingest_event_id FROM jobs WHERE workspace_id = $1",
      [workspaceId]
    )
    const eventByEventId = new Map(events.map((e) => [e.event_id, e]))
    const jobIdsByEvent = new Map<string, Array<string>>()
    for (const j of jobs) jobIdsByEvent.set(j.ingest_event_id, [...(jobIdsByEvent.get(j.ingest_event_id) ?? []), j.id])

    const mismatches: Array<unknown> = []
    for (const s of all) {
      const answer = landed(s)!
      const row = eventByEventId.get(s.eventId)
      const jobIds = (row && jobIdsByEvent.get(row.id)) ?? []
      const fine = row !== undefined && row.status === "ACCEPTED" && row.id === answer.body.ingestEventId &&
        jobIds.length === 2 &&
        (answer.status === 200
          ? answer.body.status === "duplicate"
          : answer.body.status === "accepted" &&
            answer.body.matched.map((m: { postGroupId: string }) => m.postGroupId).sort().join() ===
              jobIds.sort().join())
      if (!fine) mismatches.push({ eventId: s.eventId, status: answer.status, body: answer.body, row, jobIds })
    }
    expect(mismatches).toEqual([])

    const sentIds = new Set(all.map((s) => s.eventId))
    expect(sentIds.size).toBe(all.length)
    expect(events).toHaveLength(sentIds.size)
    expect(jobs).toHaveLength(2 * sentIds.size)
    expect(await query(db.url, "SELECT workspace_id, event_id FROM ingest_events GROUP BY 1, 2 HAVING count(*) > 1"))
      .toEqual([])
    expect(await query(db.url, "SELECT ingest_event_id FROM jobs GROUP BY 1 HAVING count(*) > 2")).toEqual([])

    // The survivors keep serving.
    for (const survivor of nodes.filter((_, i) => alive[i])) {
      expect((await client(survivor).get("/health")).status).toBe(200)
      const after = await client(survivor, apiKey).post("/v1/stream", envelope(streamId))
      expect(after.status, after.text).toBe(202)
      expect(after.body.matched).toHaveLength(2)
    }
  }, 90_000 + sendSeconds * 1000)
})
