import { ulid } from "ulid"
import { beforeAll, describe, expect, it } from "vitest"
import { admin, client, OWNER_EMAIL, workspaceWithKey } from "../support/Client.js"
import { settledJobs } from "../support/Jobs.js"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET } from "../support/Routes.js"

type Api = ReturnType<typeof client>

const INDEX_CLOSE_FEED = "fd_4b1e9c2a7d03"
const SCOPES = ["streams:write", "channels:write", "channels:read", "brands:write", "ingest:write", "received:read"]

let api: Api
let accountId: string
/** The send answers, in the order they were sent. */
const sent: Record<"accepted" | "noMatch" | "unmapped" | "feed", any> = {} as any
const posted: Record<string, unknown> = {}
let channels: { desk: string; archive: string }

const marketData = (headline: string) => ({
  clipData: {
    headline,
    figures: [{ label: "Copper", value: 9812.5, unit: "USD", direction: "up" }],
    source: "Exchange data"
  }
})

const send = async (streamId: string, data: unknown) => {
  const body = { streamId, eventId: ulid(), occurredAt: "2026-11-23T08:30:00Z", data }
  const r = await api.post("/v1/stream", body)
  expect(r.status, r.text).toBe(202)
  posted[r.body.ingestEventId] = data
  return r.body
}

const { db, node } = useNode({ label: "ingest_events" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, SCOPES, "Newsroom", OWNER_EMAIL)
  api = ws.api
  accountId = ws.accountId
  expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const tickers = (await api.post("/v1/streams", { name: "Tickers", templateId: MARKET })).body.stream.id
  const quiet = (await api.post("/v1/streams", { name: "Quiet lane", templateId: MARKET })).body.stream.id
  // Created Desk first, Archive second: the detail lists their jobs in that order, not by name.
  channels = {
    desk: (await api.post("/v1/channels", { name: "Desk" })).body.channel.id,
    archive: (await api.post("/v1/channels", { name: "Archive" })).body.channel.id
  }
  for (const id of [channels.desk, channels.archive]) {
    const r = await api.post(`/v1/channels/${id}/subscriptions`, { kind: "STREAM", streamId: tickers })
    expect(r.status, r.text).toBe(201)
  }
  sent.accepted = await send(tickers, marketData("Copper jumps on supply fears"))
  sent.noMatch = await send(quiet, marketData("Gold flat into the close"))
  sent.unmapped = await send(tickers, { clipData: { headline: 42 } })
  const feed = await api.post("/v1/ingest/markets/index-close", {
    eventId: ulid(),
    occurredAt: new Date().toISOString(),
    origin: "manual",
    data: marketData("Indices close mixed")
  })
  expect(feed.status, feed.text).toBe(202)
  sent.feed = feed.body
  expect([sent.accepted.status, sent.noMatch.status, sent.unmapped.status])
    .toEqual(["accepted", "no_match", "unmapped"])
}, 120_000)

const idsOf = (r: { body: { events: Array<{ id: string }> } }) => r.body.events.map((e) => e.id)
/** Newest first: the reverse of the sending order. */
const newestFirst = () => [sent.feed, sent.unmapped, sent.noMatch, sent.accepted].map((s) => s.ingestEventId)

describe("GET /v1/ingest-events", () => {
  it("lists every event newest first, in the row shape, with the jobs each produced", async () => {
    const r = await api.get("/v1/ingest-events")
    expect(r.status, r.text).toBe(200)
    expect(r.body).toMatchObject({ total: 4, all: 4, page: 1, perPage: 25 })
    expect(idsOf(r)).toEqual(newestFirst())
    const [feed, unmapped, noMatch, accepted] = r.body.events
    expect(accepted).toEqual({
      id: sent.accepted.ingestEventId,
      origin: "custom",
      details: "Tickers",
      postTitle: "Copper jumps on supply fears",
      eventId: expect.any(String),
      status: "ACCEPTED",
      occurredAt: "2026-11-23T08:30:00.000Z",
      receivedAt: expect.any(String),
      input: "stream",
      streamId: sent.accepted.streamId,
      feedId: null,
      jobs: 2
    })
    expect(new Date(accepted.receivedAt).toISOString()).toBe(accepted.receivedAt)
    expect(noMatch).toMatchObject({ status: "NO_MATCH", details: "Quiet lane", jobs: 0 })
    expect(unmapped).toMatchObject({ status: "UNMAPPED", details: "Tickers", jobs: 0 })
    expect(feed).toMatchObject({
      origin: "manual",
      details: "markets/index-close",
      input: "feed",
      feedId: INDEX_CLOSE_FEED,
      streamId: null,
      status: sent.feed.status.toUpperCase(),
      jobs: sent.feed.matched.length
    })
    expect(r.body.facets).toEqual({
      status: { ACCEPTED: 1, NO_MATCH: 1 + (feed.status === "NO_MATCH" ? 1 : 0), UNMAPPED: 1, STALE: 0 },
      origin: { shipped: 0, custom: 3, manual: 1 }
    })
  })

  it("pages: perPage 2, page 2 is the two oldest", async () => {
    const r = await api.get("/v1/ingest-events?perPage=2&page=2")
    expect(r.status, r.text).toBe(200)
    expect(r.body).toMatchObject({ total: 4, all: 4, page: 2, perPage: 2 })
    expect(idsOf(r)).toEqual(newestFirst().slice(2))
    expect(idsOf(await api.get("/v1/ingest-events?perPage=2&page=3"))).toEqual([])
  })

  it("filters by status and by origin: total counts the matches, all and the facets stay whole", async () => {
    const unmapped = await api.get("/v1/ingest-events?status=UNMAPPED")
    expect(idsOf(unmapped)).toEqual([sent.unmapped.ingestEventId])
    expect(unmapped.body).toMatchObject({ total: 1, all: 4 })
    expect(unmapped.body.facets.status.ACCEPTED).toBe(1)
    const manual = await api.get("/v1/ingest-events?origin=manual")
    expect(idsOf(manual)).toEqual([sent.feed.ingestEventId])
    expect(manual.body).toMatchObject({ total: 1, all: 4 })
    const none = await api.get("/v1/ingest-events?origin=shipped&status=ACCEPTED")
    expect(none.body).toMatchObject({ events: [], total: 0, all: 4 })
  })

  it("searches a stream's name and a headline, case-insensitively; facets count the search's matches", async () => {
    const quiet = await api.get("/v1/ingest-events?q=QUIET")
    expect(idsOf(quiet)).toEqual([sent.noMatch.ingestEventId])
    expect(quiet.body).toMatchObject({ total: 1, all: 4 })
    expect(quiet.body.facets).toEqual({
      status: { ACCEPTED: 0, NO_MATCH: 1, UNMAPPED: 0, STALE: 0 },
      origin: { shipped: 0, custom: 1, manual: 0 }
    })
    const copper = await api.get("/v1/ingest-events?q=copper%20jumps")
    expect(idsOf(copper)).toEqual([sent.accepted.ingestEventId])
    const tickersAccepted = await api.get("/v1/ingest-events?q=tickers&status=ACCEPTED")
    expect(idsOf(tickersAccepted)).toEqual([sent.accepted.ingestEventId])
    expect(tickersAccepted.body.total).toBe(1)
    expect(tickersAccepted.body.facets.status).toEqual({ ACCEPTED: 1, NO_MATCH: 0, UNMAPPED: 1, STALE: 0 })
  })

  it("searches an event by its id, and takes % and _ literally", async () => {
    const byId = await api.get(`/v1/ingest-events?q=${sent.unmapped.ingestEventId.toLowerCase()}`)
    expect(idsOf(byId)).toEqual([sent.unmapped.ingestEventId])
    for (const q of ["%25", "_", "Quiet%25lane", "Quiet_lane"]) {
      const r = await api.get(`/v1/ingest-events?q=${q}`)
      expect(r.status, r.text).toBe(200)
      expect(r.body).toMatchObject({ events: [], total: 0, all: 4 })
    }
  })

  it("refuses a status outside the list, naming status, and a perPage over 100", async () => {
    const r = await api.get("/v1/ingest-events?status=DONE")
    const error = expectError(r, 400, "schema_validation")
    expect(error.details.map((d) => d.path).join(" ")).toContain("status")
    expectError(await api.get("/v1/ingest-events?perPage=101"), 400, "schema_validation")
    expectError(await api.get(`/v1/ingest-events?q=${"x".repeat(201)}`), 400, "schema_validation")
  })

  it("shows another workspace nothing of this one's", async () => {
    const other = await workspaceWithKey(node, ["received:read"], "Elsewhere")
    const r = await other.api.get("/v1/ingest-events")
    expect(r.body).toMatchObject({ events: [], total: 0, all: 0 })
  })
})

describe("GET /v1/ingest-events/{id}", () => {
  it("shows the accepted event with its document and its jobs, in channel creation order", async () => {
    // Rendered and, due at once, handed over to the owner's email.
    await settledJobs(db.url, "ingest_event_id = $1", [sent.accepted.ingestEventId])
    const r = await api.get(`/v1/ingest-events/${sent.accepted.ingestEventId}`)
    expect(r.status, r.text).toBe(200)
    const { event } = r.body
    expect(event).toMatchObject({
      id: sent.accepted.ingestEventId,
      status: "ACCEPTED",
      details: "Tickers",
      postTitle: "Copper jumps on supply fears",
      data: posted[sent.accepted.ingestEventId],
      document: sent.accepted.normalized,
      mappingErrors: null,
      warnings: sent.accepted.warnings,
      broadcastId: null,
      publishAt: null,
      timezone: null
    })
    expect(event.document.clipData.headline).toBe("Copper jumps on supply fears")
    expect(event.jobs.map((j: any) => j.channelName)).toEqual(["Desk", "Archive"])
    const groupOf = new Map(sent.accepted.matched.map((m: any) => [m.channelId, m.postGroupId]))
    for (const job of event.jobs) {
      expect(job).toMatchObject({ templateId: MARKET, id: job.postGroupId })
      expect(job.status).toBe("PUBLISHED")
      expect(Date.parse(job.scheduledFor)).toBeLessThanOrEqual(Date.now())
      expect(job.postGroupId).toBe(groupOf.get(job.channelId))
      expect(new Date(job.createdAt).toISOString()).toBe(job.createdAt)
    }
    expect(event.jobs.map((j: any) => j.channelId)).toEqual([channels.desk, channels.archive])
  })

  it("shows an unmapped event's mapping errors and no jobs", async () => {
    const r = await api.get(`/v1/ingest-events/${sent.unmapped.ingestEventId}`)
    expect(r.status, r.text).toBe(200)
    expect(r.body.event).toMatchObject({ status: "UNMAPPED", jobs: [], mappingErrors: sent.unmapped.mappingErrors })
    expect(r.body.event.mappingErrors.length).toBeGreaterThan(0)
  })

  it("answers another workspace's event, and a missing one, with 404 not_found", async () => {
    const other = await workspaceWithKey(node, ["received:read"], "Prying")
    expectError(await other.api.get(`/v1/ingest-events/${sent.accepted.ingestEventId}`), 404, "not_found")
    expectError(await api.get(`/v1/ingest-events/${ulid()}`), 404, "not_found")
  })
})

describe("permissions", () => {
  it("a key without received:read is 403 naming it; ingest:write alone cannot read the log", async () => {
    for (const scopes of [["streams:read", "channels:read"], ["ingest:write"]]) {
      const { apiKey } = await admin(node).key(accountId, scopes)
      const reader = client(node, apiKey)
      for (const path of ["/v1/ingest-events", `/v1/ingest-events/${sent.accepted.ingestEventId}`]) {
        expect(expectError(await reader.get(path), 403, "forbidden").message).toContain("received:read")
      }
    }
  })
})
