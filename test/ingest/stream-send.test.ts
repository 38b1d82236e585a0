import { describe, expect, it } from "vitest"
import { admin, type Answer, client, OWNER_EMAIL, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET, newEventId, ULID } from "../support/Routes.js"

const { db, node } = useNode({ label: "stream_send" })

const configScopes = ["streams:write", "streams:read", "channels:write", "channels:read", "brands:write"]

/** A workspace (with an owner: its due posts are handed over), a configuring key, a sending key, and a stream. */
const workspace = async (name: string, fieldMap: Record<string, unknown> = {}) => {
  const config = await workspaceWithKey(node, configScopes, name, OWNER_EMAIL)
  expect((await config.api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const sender = client(node, (await admin(node).key(config.accountId, ["ingest:write"])).apiKey)
  const made = await config.api.post("/v1/streams", { name: `${name} prices`, templateId: MARKET, fieldMap })
  expect(made.status, made.text).toBe(201)
  const streamId = made.body.stream.id as string
  const channel = async (channelName: string, body: Record<string, unknown> = {}) => {
    const ch = (await config.api.post("/v1/channels", { name: channelName, ...body })).body.channel
    const sub = await config.api.post(`/v1/channels/${ch.id}/subscriptions`, { kind: "STREAM", streamId })
    expect(sub.status, sub.text).toBe(201)
    return { id: ch.id as string, subscriptionId: sub.body.channel.subscriptions[0].id as string }
  }
  return { accountId: config.accountId, config: config.api, sender, streamId, channel }
}

const content = (headline = "Gold climbs to a record") => ({
  clipData: { headline, figures: [{ label: "Gold", value: 2331.8, unit: "USD", direction: "up" }] },
  metaData: { title: headline }
})

const envelope = (streamId: string, data: unknown = content(), extra: Record<string, unknown> = {}) => ({
  streamId,
  eventId: newEventId(),
  occurredAt: "2026-11-23T08:30:00Z",
  data,
  ...extra
})

const rows = async (sql: string, values: Array<unknown>) => query(db.url, sql, values)
const eventRows = (workspaceId: string) => rows("SELECT * FROM ingest_events WHERE workspace_id = $1", [workspaceId])
const jobsOf = (ingestEventId: string) =>
  rows("SELECT * FROM jobs WHERE ingest_event_id = $1 ORDER BY channel_id", [ingestEventId])
const pathsOf = (r: Answer) => r.body.error.details.map((d: { path: string }) => d.path)

describe("POST /v1/stream: outcomes", () => {
  it("accepted: 202 with one job per enabled subscription of an enabled channel, written before the answer", async () => {
    const ws = await workspace("Accepting")
    const shorts = await ws.channel("Shorts", { surface: "youtube-shorts", locale: "de" })
    const feed = await ws.channel("Feed", { surface: "instagram-feed", ratio: "4x5" })
    const paused = await ws.channel("Paused")
    expect((await ws.config.patch(`/v1/channels/${paused.id}`, { enabled: false })).status).toBe(200)
    const unsubscribed = await ws.channel("Sub off")
    const off = await ws.config.patch(`/v1/channels/${unsubscribed.id}/subscriptions/${unsubscribed.subscriptionId}`, {
      enabled: false
    })
    expect(off.status, off.text).toBe(200)

    const r = await ws.sender.post("/v1/stream", envelope(ws.streamId))
    expect(r.status, r.text).toBe(202)
    expect(r.body).toMatchObject({ status: "accepted", idempotent: false, streamId: ws.streamId, warnings: [] })
    expect(r.body.ingestEventId).toMatch(ULID)
    expect(r.body.requestId).toBe(r.headers.get("x-request-id"))
    expect(r.body.normalized).toEqual(content())
    expect(r.body.matched).toEqual([
      {
        channelId: shorts.id,
        channelName: "Shorts",
        subscriptionId: shorts.subscriptionId,
        templateId: MARKET,
        templateVersion: expect.stringMatching(/^\d+\.\d+\.\d+$/),
        outputs: [{ ratio: "9x16", locale: "de" }],
        postGroupId: expect.stringMatching(ULID)
      },
      expect.objectContaining({ channelId: feed.id, outputs: [{ ratio: "4x5", locale: "en" }] })
    ])
    const jobs = await jobsOf(r.body.ingestEventId)
    expect(jobs.map((j) => [j.id, j.channel_id, j.origin]).sort()).toEqual(
      r.body.matched.map((m: { postGroupId: string; channelId: string }) => [m.postGroupId, m.channelId, "custom"])
        .sort()
    )
    // Written ACCEPTED; the channels may have started them by now, and hand-over taken on a rendered one (docs/pipeline.md).
    for (const job of jobs) {
      expect(["ACCEPTED", "AWAITING_RENDERING", "SCHEDULED", "PUBLISHING", "PUBLISHED", "RENDER_FAILED"]).toContain(
        job.status
      )
    }
    const [event] = await eventRows(ws.accountId)
    expect(event).toMatchObject({
      id: r.body.ingestEventId,
      status: "ACCEPTED",
      origin: "custom",
      post_title: "Gold climbs to a record"
    })
  })

  it("no_match: 202, stored, no job", async () => {
    const ws = await workspace("Nobody listens")
    const r = await ws.sender.post("/v1/stream", envelope(ws.streamId))
    expect(r.status, r.text).toBe(202)
    expect(r.body).toMatchObject({ status: "no_match", matched: [] })
    expect((await eventRows(ws.accountId)).map((e) => e.status)).toEqual(["NO_MATCH"])
    expect(await jobsOf(r.body.ingestEventId)).toEqual([])
  })

  it("unmapped: 202 with mappingErrors (paths and messages), stored, nothing drawn", async () => {
    const ws = await workspace("Bad data")
    await ws.channel("Listening")
    const r = await ws.sender.post("/v1/stream", envelope(ws.streamId, { clipData: { headline: 7 }, extra: true }))
    expect(r.status, r.text).toBe(202)
    expect(r.body.status).toBe("unmapped")
    expect(r.body.matched).toEqual([])
    expect(r.body.mappingErrors).toEqual(expect.arrayContaining([
      { path: "/clipData/headline", message: expect.any(String) },
      { path: "/extra", message: expect.any(String) }
    ]))
    expect(await jobsOf(r.body.ingestEventId)).toEqual([])
    expect((await eventRows(ws.accountId))[0]).toMatchObject({ status: "UNMAPPED" })
  })

  it("a repeat is 200 duplicate with the original id; another body under the eventId is 409", async () => {
    const ws = await workspace("Repeats")
    await ws.channel("Listening")
    const body = envelope(ws.streamId)
    const first = await ws.sender.post("/v1/stream", body)
    expect(first.status).toBe(202)
    // Key order differs; the body is the same.
    const again = await ws.sender.post("/v1/stream", {
      data: body.data,
      occurredAt: body.occurredAt,
      eventId: body.eventId,
      streamId: body.streamId
    })
    expect(again.status, again.text).toBe(200)
    expect(again.body).toMatchObject({
      status: "duplicate",
      idempotent: true,
      matched: [],
      ingestEventId: first.body.ingestEventId
    })
    const other = await ws.sender.post("/v1/stream", { ...body, data: content("Silver slips") })
    expectError(other, 409, "idempotency_conflict")
    expect(pathsOf(other)).toEqual(["/eventId"])
    expect(await eventRows(ws.accountId)).toHaveLength(1)
    expect(await jobsOf(first.body.ingestEventId)).toHaveLength(1)
  })

  it("50 concurrent sends of one eventId: exactly one row and one set of jobs; one 202, the rest 200", async () => {
    const ws = await workspace("Stampede")
    await ws.channel("One")
    await ws.channel("Two")
    const body = envelope(ws.streamId)
    const answers = await Promise.all(Array.from({ length: 50 }, () => ws.sender.post("/v1/stream", body)))
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses.filter((s) => s === 202)).toHaveLength(1)
    expect(statuses.filter((s) => s === 200)).toHaveLength(49)
    expect(new Set(answers.map((a) => a.body.ingestEventId)).size).toBe(1)
    const events = await eventRows(ws.accountId)
    expect(events).toHaveLength(1)
    expect(await jobsOf(events[0]!.id as string)).toHaveLength(2)
  })

  it("templateId and templateVersion in the body are ignored: the stream decides", async () => {
    const ws = await workspace("Ignored")
    const r = await ws.sender.post(
      "/v1/stream",
      envelope(ws.streamId, content(), { templateId: "tpl_000000000000", templateVersion: "9.9.9" })
    )
    expect(r.status, r.text).toBe(202)
    expect(r.body.status).toBe("no_match")
  })
})

describe("POST /v1/stream: refusals", () => {
  it("unknown stream, or another workspace's: 404 unknown_stream naming streamId; nothing stored", async () => {
    const ws = await workspace("Mine")
    const theirs = await workspace("Theirs")
    for (const streamId of ["st_000000000000", theirs.streamId]) {
      const r = await ws.sender.post("/v1/stream", envelope(streamId))
      expect(pathsOf(expectErrorOf(r, 404, "unknown_stream"))).toEqual(["/streamId"])
      expectError(await ws.sender.post("/v1/stream/validate", envelope(streamId)), 404, "unknown_stream")
    }
    expect(await eventRows(ws.accountId)).toEqual([])
  })

  it("a disabled stream: 409 stream_disabled on send and on validate", async () => {
    const ws = await workspace("Switched off")
    expect((await ws.config.post(`/v1/streams/${ws.streamId}/update`, { enabled: false })).status).toBe(200)
    expectError(await ws.sender.post("/v1/stream", envelope(ws.streamId)), 409, "stream_disabled")
    expectError(await ws.sender.post("/v1/stream/validate", envelope(ws.streamId)), 409, "stream_disabled")
    expect(await eventRows(ws.accountId)).toEqual([])
  })

  it("a deleted stream stops its listening channels and refuses events as unknown; what it received stays", async () => {
    const ws = await workspace("Deleted")
    await ws.channel("One")
    await ws.channel("Two")
    const before = await ws.sender.post("/v1/stream", envelope(ws.streamId))
    expect(before.body.matched).toHaveLength(2)
    const deleted = await ws.config.post(`/v1/streams/${ws.streamId}/delete`)
    expect(deleted.body).toEqual({ ok: true, stopped: 2 })
    expectError(await ws.sender.post("/v1/stream", envelope(ws.streamId)), 404, "unknown_stream")
    expect(await jobsOf(before.body.ingestEventId)).toHaveLength(2)
  })

  it("a malformed envelope is 400 schema_validation with every field named", async () => {
    const ws = await workspace("Malformed")
    const r = await ws.sender.post("/v1/stream", {
      eventId: "not-a-ulid",
      occurredAt: "yesterday",
      data: [],
      locale: "xx",
      surprise: 1
    })
    expect(pathsOf(expectErrorOf(r, 400, "schema_validation")).sort()).toEqual(
      ["/data", "/eventId", "/locale", "/occurredAt", "/streamId", "/surprise"]
    )
    expectError(await ws.sender.post("/v1/stream/validate", { streamId: ws.streamId }), 400, "schema_validation")
    const raw = await fetch(`${node.url}/v1/stream`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${(await admin(node).key(ws.accountId, ["ingest:write"])).apiKey}`,
        "content-type": "application/json"
      },
      body: "{not json"
    })
    expect(((await raw.json()) as { error: { code: string } }).error.code).toBe("malformed_json")
    expect(await eventRows(ws.accountId)).toEqual([])
  })

  it("x-service-account naming another account: 403; its own passes", async () => {
    const ws = await workspace("Declared")
    const other = await admin(node).workspace("Another")
    expectError(
      await ws.sender.post("/v1/stream", envelope(ws.streamId), { "x-service-account": other.accountId }),
      403,
      "forbidden"
    )
    expect((await ws.sender.post("/v1/stream", envelope(ws.streamId), { "x-service-account": ws.accountId })).status)
      .toBe(202)
  })
})

const expectErrorOf = (r: Answer, status: number, code: string) => {
  expectError(r, status, code)
  return r
}

describe("POST /v1/stream/validate", () => {
  it("answers the document, errors, warnings and wouldMatch, and stores nothing", async () => {
    const ws = await workspace("Dry run", {
      "/clipData/headline": { from: "/title" },
      "/metaData/title": { from: "/title", maxLength: true }
    })
    const ch = await ws.channel("Listening")
    const long = "G".repeat(150)
    const r = await ws.sender.post("/v1/stream/validate", envelope(ws.streamId, { title: long }))
    expect(r.status, r.text).toBe(200)
    expect(r.body).toMatchObject({
      streamId: ws.streamId,
      templateId: MARKET,
      templateVersion: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      valid: false,
      document: { clipData: { headline: long }, metaData: { title: "G".repeat(100) } },
      warnings: [{ path: "/metaData/title", message: expect.stringContaining("100") }],
      wouldMatch: [{
        channelId: ch.id,
        channelName: "Listening",
        subscriptionId: ch.subscriptionId,
        outputs: [{ ratio: "9x16", locale: "en" }]
      }]
    })
    expect(r.body.errors.map((e: { path: string }) => e.path)).toContain("/clipData/headline")
    const fine = await ws.sender.post("/v1/stream/validate", envelope(ws.streamId, { title: "Short" }))
    expect(fine.body).toMatchObject({ valid: true, errors: [], warnings: [] })
    expect(await eventRows(ws.accountId)).toEqual([])
    const listed = (await ws.config.get("/v1/streams")).body.streams[0]
    expect(listed.lastReceivedAt).toBeNull()
  })
})

describe("the field map", () => {
  const mapped = async (fieldMap: Record<string, unknown>, data: unknown) => {
    const ws = await workspace(`Map ${newEventId()}`, fieldMap)
    const r = await ws.sender.post("/v1/stream/validate", envelope(ws.streamId, data))
    expect(r.status, r.text).toBe(200)
    return r.body
  }
  const figure = { "/clipData/figures/0/label": { const: "Gold" }, "/clipData/figures/0/direction": { const: "up" } }

  it("from and const build the document; a valid one is accepted", async () => {
    const body = await mapped(
      { "/clipData/headline": { from: "/news/title" }, "/clipData/figures/0/value": { from: "/price" }, ...figure },
      { news: { title: "Gold up" }, price: 2331.8, ignored: true }
    )
    expect(body.document).toEqual({
      clipData: { headline: "Gold up", figures: [{ label: "Gold", value: 2331.8, direction: "up" }] }
    })
    expect(body.valid).toBe(true)
  })

  it("fallback applies when from resolves to nothing, not when it resolves to an empty value", async () => {
    const map = {
      "/clipData/headline": { from: "/title", fallback: "No title" },
      "/clipData/subline": { from: "/sub", fallback: "none" }
    }
    const absent = await mapped(map, { sub: "" })
    expect(absent.document.clipData).toEqual({ headline: "No title", subline: "" })
  })

  it("as coerces before validation: string, number, integer, boolean, iso-date", async () => {
    const body = await mapped({
      "/clipData/subline": { from: "/n", as: "string" },
      "/clipData/figures/0/value": { from: "/price", as: "number" },
      "/clipData/figures/1/value": { from: "/count", as: "integer" },
      "/clipData/headline": { from: "/flag", as: "boolean" },
      "/metaData/title": { from: "/when", as: "iso-date" }
    }, { n: 42, price: "512.37", count: "12.9", flag: "true", when: "2026-11-23T09:30:00+01:00" })
    expect(body.document).toEqual({
      clipData: { subline: "42", figures: [{ value: 512.37 }, { value: 12 }], headline: true },
      metaData: { title: "2026-11-23T08:30:00.000Z" }
    })
  })

  it("maxLength cuts over-long text to the template's limit and says so in warnings", async () => {
    const body = await mapped({ "/metaData/title": { from: "/t", maxLength: true } }, { t: "x".repeat(130) })
    expect(body.document.metaData.title).toHaveLength(100)
    expect(body.warnings).toEqual([{ path: "/metaData/title", message: expect.stringContaining("130") }])
    const uncut = await mapped({ "/metaData/title": { from: "/t" } }, { t: "x".repeat(130) })
    expect(uncut.errors.map((e: { path: string }) => e.path)).toContain("/metaData/title")
  })

  it("keys into /locales/<locale>/... fill language copies", async () => {
    const body = await mapped({
      ...figure,
      "/clipData/headline": { from: "/en" },
      "/clipData/figures/0/value": { const: 1 },
      "/locales/de/clipData/headline": { from: "/de" }
    }, { en: "Gold up", de: "Gold steigt" })
    expect(body.document.locales).toEqual({ de: { clipData: { headline: "Gold steigt" } } })
    expect(body.valid).toBe(true)
  })
})

describe("what a stream received", () => {
  it("lastReceivedAt and lastSample follow the events it receives, whatever their outcome", async () => {
    const ws = await workspace("Sampled")
    const before = (await ws.config.get("/v1/streams")).body.streams[0]
    expect(before.lastReceivedAt).toBeNull()
    expect(before).not.toHaveProperty("lastSample")
    await ws.sender.post("/v1/stream", envelope(ws.streamId, content("First")))
    const second = { odd: "shape" }
    await ws.sender.post("/v1/stream", envelope(ws.streamId, second))
    const after = (await ws.config.get("/v1/streams")).body.streams[0]
    expect(Date.parse(after.lastReceivedAt)).toBeGreaterThan(Date.now() - 60_000)
    expect(after.lastSample).toEqual(second)
    const suggested = await ws.config.post(`/v1/streams/${ws.streamId}/suggest-map`)
    expect(suggested.status, suggested.text).toBe(200)
    expect(suggested.body.sample).toEqual(second)
  })
})
