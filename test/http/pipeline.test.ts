import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { client, workspaceWithKey } from "../support/Client.js"
import { createTestDatabase, query, type TestDatabase } from "../support/Database.js"
import { startNode, type TestNode } from "../support/Node.js"
import { MARKET, newEventId } from "../support/Routes.js"

let db: TestDatabase
let node: TestNode

beforeAll(async () => {
  db = await createTestDatabase("pipeline")
  node = await startNode({ databaseUrl: db.url })
})

afterAll(async () => {
  await node?.stop()
  await db?.drop()
})

const scopes = ["streams:write", "channels:write", "channels:read", "brands:write", "ingest:write", "received:read", "renders:read"]

const content = {
  clipData: { headline: "Gold climbs to a record", subline: "Bullion tops $2,400" },
  metaData: {
    title: "Gold at a record",
    captionShort: "Gold: record.",
    captionMedium: "Gold climbed to a record on Tuesday.",
    captionLong: "Gold climbed to a record on Tuesday as the dollar slid for a third day.",
    hashtags: ["gold", "markets"]
  },
  locales: { de: { metaData: { title: "Gold auf Rekordhoch", captionShort: "Gold: Rekord." } } }
}

const jobsOf = (ingestEventId: string) =>
  query(db.url, "SELECT * FROM jobs WHERE ingest_event_id = $1 ORDER BY created_at, id", [ingestEventId])

/** Waits (without sleeping longer than a poll) until every job of the event has left the rendering stage. */
const settled = async (ingestEventId: string, timeoutMs = 150_000) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const jobs = await jobsOf(ingestEventId)
    if (jobs.every((j) => !["ACCEPTED", "AWAITING_RENDERING"].includes(j.status as string))) return jobs
    if (Date.now() > deadline) throw new Error(`jobs still rendering: ${JSON.stringify(jobs.map((j) => j.status))}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

describe("from event to posts", () => {
  it("renders each distinct output once and writes one post per channel with its language's text", async () => {
    const ws = await workspaceWithKey(node, scopes, "Pipeline")
    const api = client(node, ws.apiKey)
    await api.post("/v1/brands", { name: "House" })
    const stream = (await api.post("/v1/streams", { name: "Prices", templateId: MARKET })).body.stream
    const channel = async (body: Record<string, unknown>) => {
      const made = await api.post("/v1/channels", body)
      expect(made.status, made.text).toBe(201)
      const sub = await api.post(`/v1/channels/${made.body.channel.id}/subscriptions`, {
        kind: "STREAM",
        streamId: stream.id,
        templateVariant: "compact"
      })
      expect(sub.status, sub.text).toBe(201)
      return made.body.channel.id as string
    }
    const shorts = await channel({ name: "Shorts", surface: "youtube-shorts", locale: "en" })
    const telegram = await channel({ name: "Telegram DE", surface: "telegram", ratio: "1x1", locale: "de" })
    const reviewed = await channel({ name: "Reviewed", surface: "tiktok", locale: "en", approval: "PER_POST" })

    const sent = await api.post("/v1/stream", { streamId: stream.id, eventId: newEventId(), occurredAt: new Date().toISOString(), data: content })
    expect(sent.status, sent.text).toBe(202)
    expect(sent.body.matched).toHaveLength(3)

    const jobs = await settled(sent.body.ingestEventId)
    const byChannel = new Map(jobs.map((j) => [j.channel_id as string, j]))
    expect(byChannel.get(shorts)!.status).toBe("SCHEDULED")
    expect(byChannel.get(telegram)!.status).toBe("SCHEDULED")
    expect(byChannel.get(reviewed)!.status).toBe("AWAITING_APPROVAL")
    // Shorts and TikTok are both 9x16 in English: one video serves both.
    expect(byChannel.get(shorts)!.render_job_id).toBe(byChannel.get(reviewed)!.render_job_id)
    expect(byChannel.get(shorts)!.render_job_id).not.toBe(byChannel.get(telegram)!.render_job_id)
    const renders = await query(db.url, "SELECT state FROM render_jobs WHERE workspace_id = $1", [ws.accountId])
    expect(renders.map((r) => r.state)).toEqual(["COMPLETED", "COMPLETED"])

    const posts = await query(db.url, "SELECT * FROM posts WHERE job_id = ANY($1)", [jobs.map((j) => j.id)])
    const postOf = (channelId: string) => posts.find((p) => p.channel_id === channelId)!
    expect(postOf(shorts)).toMatchObject({ platform: "youtube", ratio: "9x16", locale: "en", title: "Gold at a record",
      caption: content.metaData.captionLong, hashtags: ["gold", "markets"], state: "SCHEDULED" })
    expect(postOf(telegram)).toMatchObject({ platform: "telegram", ratio: "1x1", locale: "de", title: "Gold auf Rekordhoch",
      caption: "Gold: Rekord." })
    expect(postOf(reviewed)).toMatchObject({ platform: "tiktok", caption: content.metaData.captionMedium, state: "AWAITING_APPROVAL" })
    const approvals = await query(db.url, "SELECT * FROM approvals WHERE job_id = $1", [byChannel.get(reviewed)!.id])
    expect(approvals.map((a) => a.state)).toEqual(["PENDING"])

    // The same content again (another event): served by the kept videos, nothing rendered anew.
    const again = await api.post("/v1/stream", { streamId: stream.id, eventId: newEventId(), occurredAt: new Date().toISOString(), data: content })
    const second = await settled(again.body.ingestEventId)
    expect(second.map((j) => j.status).sort()).toEqual(["AWAITING_APPROVAL", "SCHEDULED", "SCHEDULED"])
    expect((await query(db.url, "SELECT count(*)::int AS n FROM render_jobs WHERE workspace_id = $1", [ws.accountId]))[0]!.n).toBe(2)
  }, 240_000)
})
