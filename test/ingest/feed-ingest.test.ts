import { describe, expect, it } from "vitest"
import { admin, type Answer, client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"
import { expectError, indexClose, MARKET, newEventId, ULID } from "../support/Routes.js"

const INDEX_CLOSE = { sourceSlug: "markets", formatSlug: "index-close" }
const ROUTE = "/v1/ingest/markets/index-close"

const { db, node } = useNode({ label: "feed_ingest" })

const scopes = ["channels:write", "channels:read", "brands:write", "feeds:write", "ingest:write"]

/** A workspace with (optionally) a channel subscribed to the index-close feed. */
const workspace = async (name: string, listening = true) => {
  const ws = await workspaceWithKey(node, scopes, name)
  expect((await ws.api.post("/v1/brands", { name: "House" })).status).toBe(201)
  let channelId: string | undefined
  if (listening) {
    channelId = (await ws.api.post("/v1/channels", { name: `${name} markets` })).body.channel.id
    const sub = await ws.api.post(`/v1/channels/${channelId}/subscriptions`, { kind: "BROADCAST", ...INDEX_CLOSE })
    expect(sub.status, sub.text).toBe(201)
  }
  return { ...ws, channelId }
}

const event = (extra: Record<string, unknown> = {}) => ({
  eventId: newEventId(),
  occurredAt: new Date().toISOString(),
  data: indexClose,
  ...extra
})
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, "Z")
const eventsOf = (accountId: string) =>
  query(db.url, "SELECT * FROM ingest_events WHERE workspace_id = $1 ORDER BY received_at, id", [accountId])
const jobsOf = (ingestEventId: string) =>
  query(db.url, "SELECT * FROM jobs WHERE ingest_event_id = $1", [ingestEventId])
const pathsOf = (r: Answer) => r.body.error.details.map((d: { path: string }) => d.path)

describe("POST /v1/ingest/{source}/{format}", () => {
  it("accepted: one job per channel subscribed to the feed, origin shipped by default", async () => {
    const ws = await workspace("Listener")
    const r = await ws.api.post(ROUTE, event())
    expect(r.status, r.text).toBe(202)
    expect(r.body).toMatchObject({ status: "accepted", idempotent: false, warnings: [], normalized: indexClose })
    expect(r.body.matched).toEqual([
      expect.objectContaining({ channelId: ws.channelId, templateId: MARKET, postGroupId: expect.stringMatching(ULID) })
    ])
    const [row] = await eventsOf(ws.accountId)
    expect(row).toMatchObject({
      id: r.body.ingestEventId,
      origin: "shipped",
      input: "feed",
      status: "ACCEPTED",
      details: "markets/index-close"
    })
    expect((await jobsOf(r.body.ingestEventId)).map((j) => [j.channel_id, j.origin])).toEqual([[
      ws.channelId,
      "shipped"
    ]])
  })

  it("no channel listening, or the feed switched off: 202 no_match, nothing drawn", async () => {
    const quiet = await workspace("Quiet", false)
    expect((await quiet.api.post(ROUTE, event())).body.status).toBe("no_match")
    const off = await workspace("Switched off")
    expect((await off.api.put("/v1/feeds", { ...INDEX_CLOSE, enabled: false })).status).toBe(200)
    const r = await off.api.post(ROUTE, event())
    expect(r.status, r.text).toBe(202)
    expect(r.body).toMatchObject({ status: "no_match", matched: [] })
    expect(r.body.warnings[0].message).toContain("switched off")
    expect(await jobsOf(r.body.ingestEventId)).toEqual([])
  })

  it("stale: older than the feed's maxAgeSeconds is 202 stale, stored, nothing drawn", async () => {
    const ws = await workspace("Late")
    const old = new Date(Date.now() - 2 * 3_600_000).toISOString()
    const r = await ws.api.post(ROUTE, event({ occurredAt: old }))
    expect(r.status, r.text).toBe(202)
    expect(r.body).toMatchObject({ status: "stale", matched: [] })
    expect((await eventsOf(ws.accountId))[0]).toMatchObject({ status: "STALE" })
    expect(await jobsOf(r.body.ingestEventId)).toEqual([])
  })

  it("a repeat is 202 duplicate with the original id; another body under the eventId is 409", async () => {
    const ws = await workspace("Repeats")
    const body = event()
    const first = await ws.api.post(ROUTE, body)
    const again = await ws.api.post(ROUTE, body)
    expect(again.status, again.text).toBe(202)
    expect(again.body).toMatchObject({
      status: "duplicate",
      idempotent: true,
      matched: [],
      ingestEventId: first.body.ingestEventId
    })
    expectError(await ws.api.post(ROUTE, { ...body, origin: "custom" }), 409, "idempotency_conflict")
    expect(await eventsOf(ws.accountId)).toHaveLength(1)
  })

  it("content not fitting the feed's template is 400 naming the field under /data; nothing stored", async () => {
    const ws = await workspace("Misfit")
    const r = await ws.api.post(ROUTE, event({ data: { clipData: { headline: 5 }, nope: 1 } }))
    expectError(r, 400, "schema_validation")
    expect(pathsOf(r).sort()).toEqual(["/data/clipData/headline", "/data/nope"])
    expect(await eventsOf(ws.accountId)).toEqual([])
  })

  it("unknown source or format: 404 unknown_source / unknown_format", async () => {
    const ws = await workspace("Lost", false)
    const r = await ws.api.post("/v1/ingest/nowhere/index-close", event())
    expectError(r, 404, "unknown_source")
    // The slugs came in the path, not the body: no detail points into the body.
    expect(r.body.error.details).toEqual([])
    expectError(await ws.api.post("/v1/ingest/markets/nothing", event()), 404, "unknown_format")
    expectError(await ws.api.post("/v1/ingest/markets/nothing/validate", event()), 404, "unknown_format")
  })
})

describe("origin manual: publishAt and timezone", () => {
  it("publishAt schedules the jobs for that time", async () => {
    const ws = await workspace("Scheduled")
    const at = inAnHour()
    const r = await ws.api.post(ROUTE, event({ origin: "manual", publishAt: at }))
    expect(r.status, r.text).toBe(202)
    const [job] = await jobsOf(r.body.ingestEventId)
    expect(new Date(job!.scheduled_for as string).toISOString()).toBe(new Date(at).toISOString())
    expect(job!.origin).toBe("manual")
  })

  it("a local time is read in timezone", async () => {
    const ws = await workspace("Local time")
    const r = await ws.api.post(
      ROUTE,
      event({ origin: "manual", publishAt: "2030-07-01T09:00", timezone: "Europe/Berlin" })
    )
    expect(r.status, r.text).toBe(202)
    const [row] = await eventsOf(ws.accountId)
    expect(new Date(row!.publish_at as string).toISOString()).toBe("2030-07-01T07:00:00.000Z")
    expect(row!.timezone).toBe("Europe/Berlin")
  })

  it("refuses publishAt/timezone without origin manual, a past time, an unknown zone, a local time without zone", async () => {
    const ws = await workspace("Refusals")
    const cases: Array<[Record<string, unknown>, Array<string>]> = [
      [{ publishAt: inAnHour() }, ["/publishAt"]],
      [{ origin: "custom", timezone: "Europe/Berlin" }, ["/timezone"]],
      [{ origin: "manual", publishAt: "2020-01-01T00:00:00Z" }, ["/publishAt"]],
      [{ origin: "manual", publishAt: inAnHour(), timezone: "Mars/Olympus" }, ["/timezone"]],
      [{ origin: "manual", publishAt: "2030-07-01T09:00" }, ["/timezone"]]
    ]
    for (const [extra, paths] of cases) {
      const r = await ws.api.post(ROUTE, event(extra))
      expectError(r, 400, "schema_validation")
      expect(pathsOf(r), JSON.stringify(extra)).toEqual(paths)
    }
    expect(await eventsOf(ws.accountId)).toEqual([])
  })
})

describe("POST /v1/ingest/{source}/{format}/validate", () => {
  it("answers valid, stale, wouldMatch and normalized, storing nothing", async () => {
    const ws = await workspace("Dry run")
    const r = await ws.api.post(`${ROUTE}/validate`, event())
    expect(r.status, r.text).toBe(200)
    expect(r.body).toMatchObject({ valid: true, stale: false, normalized: indexClose, warnings: [] })
    expect(r.body.wouldMatch).toEqual([
      expect.objectContaining({ channelId: ws.channelId, outputs: [{ ratio: "9x16", locale: "en" }] })
    ])
    const old = await ws.api.post(`${ROUTE}/validate`, event({ occurredAt: "2020-01-01T00:00:00Z" }))
    expect(old.body).toMatchObject({ valid: false, stale: true, wouldMatch: [] })
    expect(await eventsOf(ws.accountId)).toEqual([])
  })
})

describe("broadcasts", () => {
  const platformKey = async () => {
    const r = await admin(node).post("/admin/platform-keys", { name: "Shipped feeds" })
    expect(r.status, r.text).toBe(201)
    return client(node, r.body.apiKey as string)
  }
  const broadcast = (extra: Record<string, unknown> = {}) => ({ ...INDEX_CLOSE, ...event(), ...extra })

  it("carries one event to every workspace with the feed on and a channel subscribed, one event each", async () => {
    const platform = await platformKey()
    const a = await workspace("Broadcast A")
    const b = await workspace("Broadcast B")
    const off = await workspace("Broadcast off")
    expect((await off.api.put("/v1/feeds", { ...INDEX_CLOSE, enabled: false })).status).toBe(200)
    const deaf = await workspace("Broadcast deaf", false)
    const body = broadcast()

    const r = await platform.post("/v1/broadcast", body)
    expect(r.status, r.text).toBe(202)
    expect(r.body).toMatchObject({
      status: "accepted",
      idempotent: false,
      eventId: body.eventId,
      broadcastId: expect.stringMatching(ULID)
    })
    const reached = r.body.workspaces.map((w: { accountId: string }) => w.accountId)
    expect(reached).toEqual(expect.arrayContaining([a.accountId, b.accountId]))
    expect(reached).not.toContain(off.accountId)
    expect(reached).not.toContain(deaf.accountId)
    for (const ws of [a, b]) {
      const [row] = await eventsOf(ws.accountId)
      expect(row).toMatchObject({
        event_id: body.eventId,
        origin: "shipped",
        input: "broadcast",
        status: "ACCEPTED",
        broadcast_id: r.body.broadcastId
      })
      expect(await jobsOf(row!.id as string)).toHaveLength(1)
    }
    expect(await eventsOf(off.accountId)).toEqual([])

    const shown = await platform.get(`/v1/broadcast/${r.body.broadcastId}`)
    expect(shown.status, shown.text).toBe(200)
    expect(shown.body.broadcast).toMatchObject({
      id: r.body.broadcastId,
      eventId: body.eventId,
      feedId: "fd_4b1e9c2a7d03",
      status: "accepted"
    })
    expect(
      shown.body.broadcast.events.filter((e: { accountId: string }) => [a.accountId, b.accountId].includes(e.accountId))
    )
      .toEqual([
        expect.objectContaining({ status: "ACCEPTED", jobs: 1 }),
        expect.objectContaining({ status: "ACCEPTED", jobs: 1 })
      ])
    const listed = await platform.get("/v1/broadcasts?perPage=100")
    expect(listed.status, listed.text).toBe(200)
    expect(listed.body.broadcasts.map((x: { id: string }) => x.id)).toContain(r.body.broadcastId)

    const again = await platform.post("/v1/broadcast", body)
    expect(again.status, again.text).toBe(202)
    expect(again.body).toMatchObject({ status: "duplicate", idempotent: true, broadcastId: r.body.broadcastId })
    expect(await eventsOf(a.accountId)).toHaveLength(1)
    expectError(await platform.post("/v1/broadcast", { ...body, locale: "de" }), 409, "idempotency_conflict")
  })

  it("validate stores nothing; unknown ids are 404; bad content 400 under /data", async () => {
    const platform = await platformKey()
    const dry = await platform.post("/v1/broadcast/validate", broadcast())
    expect(dry.status, dry.text).toBe(200)
    expect(dry.body).toMatchObject({ valid: true, stale: false, feedId: "fd_4b1e9c2a7d03" })
    expectError(await platform.get("/v1/broadcast/01JAAAAAAAAAAAAAAAAAAAAAAA"), 404, "not_found")
    const bad = await platform.post("/v1/broadcast", broadcast({ data: { clipData: {} } }))
    expectError(bad, 400, "schema_validation")
    expect(pathsOf(bad)[0]).toMatch(/^\/data\//)
    expectError(await platform.post("/v1/broadcast", broadcast({ formatSlug: "nothing" })), 404, "unknown_format")
  })

  it("a workspace key is refused on every broadcast route with 403 naming ingest:shipped", async () => {
    const ws = await workspaceWithKey(node, ["*"], "Not the platform")
    for (
      const [method, path] of [
        ["POST", "/v1/broadcast"],
        ["POST", "/v1/broadcast/validate"],
        ["GET", "/v1/broadcasts"],
        ["GET", "/v1/broadcast/01JAAAAAAAAAAAAAAAAAAAAAAA"]
      ] as const
    ) {
      const r = method === "GET" ? await ws.api.get(path) : await ws.api.post(path, broadcast())
      expect(expectError(r, 403, "forbidden").message).toContain("This credential lacks the ingest:shipped scope")
    }
  })

  it("a platform key cannot use workspace routes", async () => {
    const platform = await platformKey()
    expectError(await platform.post(ROUTE, event()), 403, "forbidden")
  })
})
