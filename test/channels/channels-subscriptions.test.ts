import { beforeAll, describe, expect, it } from "vitest"
import { admin, type Answer, client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET, ULID } from "../support/Routes.js"

const SCOREBOARD = "tpl_c51d0a7e3f92"
const INDEX_CLOSE = { sourceSlug: "markets", formatSlug: "index-close" }
const CURRENCY_MOVES = { sourceSlug: "markets", formatSlug: "currency-moves" }

let api: ReturnType<typeof client>
let accountId: string

const scopes = [
  "channels:read",
  "channels:write",
  "brands:write",
  "streams:read",
  "streams:write",
  "feeds:write",
  "postlists:write"
]
const pathsOf = (r: Answer) => r.body.error.details.map((d: { path: string }) => d.path)
const newChannel = async (name: string, c = api) => (await c.post("/v1/channels", { name })).body.channel
const subscribe = (channelId: string, body: unknown, c = api) => c.post(`/v1/channels/${channelId}/subscriptions`, body)
const rowsOf = async (channelId: string) =>
  (await query(db.url, "SELECT count(*)::int AS n FROM channel_subscriptions WHERE channel_id = $1", [channelId]))[0]!
    .n
const newStream = async (name: string, c = api) =>
  (await c.post("/v1/streams", { name, templateId: MARKET })).body.stream as { id: string }

const { db, node } = useNode({ label: "subscriptions" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, scopes)
  api = ws.api
  accountId = ws.accountId
  await api.post("/v1/brands", { name: "House" })
})

describe("BROADCAST subscriptions", () => {
  it("subscribes to a shipped feed, answering the channel with it; the same feed twice is 409", async () => {
    const ch = await newChannel("Markets")
    const r = await subscribe(ch.id, { kind: "BROADCAST", ...INDEX_CLOSE })
    expect(r.status, r.text).toBe(201)
    expect(r.body.channel.id).toBe(ch.id)
    expect(r.body.channel.subscriptions).toEqual([{
      id: expect.stringMatching(ULID),
      kind: "BROADCAST",
      sourceSlug: "markets",
      formatSlug: "index-close",
      streamId: null,
      queueId: null,
      queueName: null,
      feedId: "fd_4b1e9c2a7d03",
      templateId: MARKET,
      templateVariant: null,
      templateVersion: null,
      enabled: true
    }])
    const listed = (await api.get("/v1/channels")).body.channels.find((c: { id: string }) => c.id === ch.id)
    expect(listed.subscriptions).toEqual(r.body.channel.subscriptions)
    const twice = await subscribe(ch.id, { kind: "BROADCAST", ...INDEX_CLOSE, templateVersion: "1.0.0" })
    expectError(twice, 409, "conflict")
    expect(await rowsOf(ch.id)).toBe(1)
  })

  it("pins variant and version: only a full major.minor.patch, and only one that has a build", async () => {
    const ch = await newChannel("Pins")
    const cases: Array<[unknown, number, string, string]> = [
      [{ templateVersion: "1" }, 400, "schema_validation", "/templateVersion"],
      [{ templateVersion: "1.1" }, 400, "schema_validation", "/templateVersion"],
      [{ templateVersion: "Latest" }, 400, "schema_validation", "/templateVersion"],
      [{ templateVersion: 2 }, 400, "schema_validation", "/templateVersion"],
      [{ templateVariant: "huge" }, 404, "unknown_template", "/templateVariant"],
      [{ templateVersion: "9.9.9" }, 404, "unknown_template", "/templateVersion"],
      // 1.0.1 is a build of the compact variant only; index-close draws the standard one.
      [{ templateVersion: "1.0.1" }, 404, "unknown_template", "/templateVersion"]
    ]
    for (const [pins, status, code, path] of cases) {
      const r = await subscribe(ch.id, { kind: "BROADCAST", ...INDEX_CLOSE, ...(pins as object) })
      expectError(r, status, code)
      expect(pathsOf(r), JSON.stringify(pins)).toContain(path)
    }
    expect(await rowsOf(ch.id)).toBe(0)
    const compact = await subscribe(ch.id, { kind: "BROADCAST", ...CURRENCY_MOVES, templateVersion: "1.0.1" })
    expect(compact.status, compact.text).toBe(201)
    expect(compact.body.channel.subscriptions[0]).toMatchObject({ templateVariant: null, templateVersion: "1.0.1" })
    const other = await subscribe(ch.id, {
      kind: "BROADCAST",
      ...INDEX_CLOSE,
      templateVariant: "compact",
      templateVersion: "1.0.1"
    })
    expect(other.status, other.text).toBe(201)
    expect(other.body.channel.subscriptions[1]).toMatchObject({ templateVariant: "compact", templateVersion: "1.0.1" })
  })

  it("takes `latest` as the newest build, stored and answered as null, on subscribe and on PATCH", async () => {
    const ch = await newChannel("Latest")
    const r = await subscribe(ch.id, { kind: "BROADCAST", ...INDEX_CLOSE, templateVersion: "latest" })
    expect(r.status, r.text).toBe(201)
    const sub = r.body.channel.subscriptions[0]
    expect(sub).toMatchObject({ templateVariant: null, templateVersion: null })
    const at = `/v1/channels/${ch.id}/subscriptions/${sub.id}`
    expect((await api.patch(at, { templateVersion: "1.1.0" })).body.channel.subscriptions[0].templateVersion).toBe(
      "1.1.0"
    )
    const back = await api.patch(at, { templateVersion: "latest" })
    expect(back.status, back.text).toBe(200)
    expect(back.body.channel.subscriptions[0].templateVersion).toBeNull()
    const stream = await newStream("Latest stream")
    const onStream = await subscribe(ch.id, { kind: "STREAM", streamId: stream.id, templateVersion: "latest" })
    expect(onStream.status, onStream.text).toBe(201)
    const queue = await api.post("/v1/queues", { name: "Latest list" })
    expect(queue.status, queue.text).toBe(201)
    const onQueue = await subscribe(ch.id, { kind: "QUEUE", queueId: queue.body.queue.id, templateVersion: "latest" })
    expect(onQueue.status, onQueue.text).toBe(201)
    const rows = await query(db.url, "SELECT template_version FROM channel_subscriptions WHERE channel_id = $1", [
      ch.id
    ])
    expect(rows.map((row) => row["template_version"])).toEqual([null, null, null])
    const listed = (await api.get("/v1/channels")).body.channels.find((c: { id: string }) => c.id === ch.id)
    expect(listed.subscriptions.map((s: { templateVersion: unknown }) => s.templateVersion)).toEqual([null, null, null])
  })

  it("refuses a body that does not name its input, naming the field, and stores nothing", async () => {
    const ch = await newChannel("Shapes")
    const cases: Array<[unknown, string]> = [
      [{ kind: "BROADCAST", sourceSlug: "markets" }, "/formatSlug"],
      [{ kind: "BROADCAST", formatSlug: "index-close" }, "/sourceSlug"],
      [{ kind: "BROADCAST", ...INDEX_CLOSE, streamId: "st_000000000000" }, "/streamId"],
      [{ kind: "STREAM" }, "/streamId"],
      [{ kind: "QUEUE" }, "/queueId"],
      [{ kind: "RSS", ...INDEX_CLOSE }, "/kind"],
      [{ ...INDEX_CLOSE }, "/kind"]
    ]
    for (const [body, path] of cases) {
      const r = await subscribe(ch.id, body)
      expectError(r, 400, "schema_validation")
      expect(pathsOf(r), JSON.stringify(body)).toContain(path)
    }
    expect(await rowsOf(ch.id)).toBe(0)
  })

  it("answers unknown source and format with 404 naming the field", async () => {
    const ch = await newChannel("Unknowns")
    const source = await subscribe(ch.id, { kind: "BROADCAST", sourceSlug: "weather", formatSlug: "index-close" })
    expectError(source, 404, "unknown_source")
    expect(pathsOf(source)).toEqual(["/sourceSlug"])
    const format = await subscribe(ch.id, { kind: "BROADCAST", sourceSlug: "markets", formatSlug: "tides" })
    expectError(format, 404, "unknown_format")
    expect(pathsOf(format)).toEqual(["/formatSlug"])
    expect(await rowsOf(ch.id)).toBe(0)
  })

  it("refuses a feed not offered (not entitled and not live) or switched off with 403 naming the feed", async () => {
    const ch = await newChannel("Refused feeds")
    const crypto = await subscribe(ch.id, { kind: "BROADCAST", sourceSlug: "crypto", formatSlug: "coin-moves" })
    expect(expectError(crypto, 403, "forbidden").message).toContain("crypto/coin-moves")
    const off = await api.put("/v1/feeds", { sourceSlug: "news", formatSlug: "headlines", enabled: false })
    expect(off.status, off.text).toBe(200)
    const switched = await subscribe(ch.id, { kind: "BROADCAST", sourceSlug: "news", formatSlug: "headlines" })
    expect(expectError(switched, 403, "forbidden").message).toContain("news/headlines")
    const withdrawn = await admin(node).put(`/admin/workspaces/${accountId}/entitlements`, { sources: ["markets"] })
    expect(withdrawn.status, withdrawn.text).toBe(200)
    const football = await subscribe(ch.id, { kind: "BROADCAST", sourceSlug: "football", formatSlug: "full-time" })
    expect(expectError(football, 403, "forbidden").message).toContain("football/full-time")
    await admin(node).put(`/admin/workspaces/${accountId}/entitlements`, { sources: ["markets", "football", "news"] })
    expect((await subscribe(ch.id, { kind: "BROADCAST", sourceSlug: "football", formatSlug: "full-time" })).status)
      .toBe(201)
    expect(await rowsOf(ch.id)).toBe(1)
  })
})

describe("STREAM and QUEUE subscriptions", () => {
  it("subscribes to a stream of the workspace; the stream shows its subscribers and listeners", async () => {
    const ch = await newChannel("Stream listener")
    const stream = await newStream("Moves")
    const r = await subscribe(ch.id, { kind: "STREAM", streamId: stream.id, templateVariant: "compact" })
    expect(r.status, r.text).toBe(201)
    expect(r.body.channel.subscriptions).toEqual([expect.objectContaining({
      kind: "STREAM",
      streamId: stream.id,
      sourceSlug: null,
      feedId: null,
      templateId: MARKET,
      templateVariant: "compact",
      templateVersion: null,
      enabled: true
    })])
    expectError(await subscribe(ch.id, { kind: "STREAM", streamId: stream.id }), 409, "conflict")
    const listed = async () =>
      (await api.get("/v1/streams")).body.streams.find((s: { id: string }) => s.id === stream.id)
    expect(await listed()).toMatchObject({ subscribers: 1, listeners: [{ channelId: ch.id, channelName: ch.name }] })

    const subId = r.body.channel.subscriptions[0].id
    const off = await api.patch(`/v1/channels/${ch.id}/subscriptions/${subId}`, { enabled: false })
    expect(off.status, off.text).toBe(200)
    expect(await listed()).toMatchObject({ subscribers: 0, listeners: [] })
    await api.patch(`/v1/channels/${ch.id}/subscriptions/${subId}`, { enabled: true })
    await api.post(`/v1/channels/${ch.id}/delete`)
    expect(await listed()).toMatchObject({ subscribers: 0, listeners: [] })
  })

  it("a stream's new template sends every subscribing channel back to the first variant and newest build", async () => {
    const stream = await newStream("Retemplated")
    const a = await newChannel("Pinned A")
    const b = await newChannel("Pinned B")
    await subscribe(a.id, { kind: "STREAM", streamId: stream.id, templateVariant: "compact", templateVersion: "1.0.1" })
    await subscribe(b.id, { kind: "STREAM", streamId: stream.id, templateVersion: "1.0.0" })
    const sameTemplate = await api.post(`/v1/streams/${stream.id}/update`, { templateId: MARKET, name: "Same" })
    expect(sameTemplate.status, sameTemplate.text).toBe(200)
    const pinsOf = async (channelId: string) =>
      (await api.get("/v1/channels")).body.channels.find((c: { id: string }) => c.id === channelId).subscriptions[0]
    expect(await pinsOf(a.id)).toMatchObject({
      templateId: MARKET,
      templateVariant: "compact",
      templateVersion: "1.0.1"
    })

    const changed = await api.post(`/v1/streams/${stream.id}/update`, { templateId: SCOREBOARD })
    expect(changed.status, changed.text).toBe(200)
    for (const channel of [a, b]) {
      expect(await pinsOf(channel.id)).toMatchObject({
        templateId: SCOREBOARD,
        templateVariant: null,
        templateVersion: null
      })
    }
  })

  it("answers an unknown stream and another workspace's stream alike: 404 unknown_stream at /streamId", async () => {
    const ch = await newChannel("Stream refusals")
    const other = (await workspaceWithKey(node, scopes, "Stream owner")).api
    const theirs = await newStream("Theirs", other)
    for (const streamId of ["st_000000000000", theirs.id]) {
      const r = await subscribe(ch.id, { kind: "STREAM", streamId })
      expectError(r, 404, "unknown_stream")
      expect(pathsOf(r)).toEqual(["/streamId"])
    }
    const mine = await newStream("Mine for pins")
    const bad = await subscribe(ch.id, { kind: "STREAM", streamId: mine.id, templateVersion: "3.0.0" })
    expectError(bad, 404, "unknown_template")
    expect(await rowsOf(ch.id)).toBe(0)
  })

  it("refuses a queueId that names no post list with 404 and stores nothing", async () => {
    const ch = await newChannel("Queue")
    const r = await subscribe(ch.id, { kind: "QUEUE", queueId: "01ARZ3NDEKTSV4RRFFQ69G5FAV" })
    expect(expectError(r, 404, "not_found").message).toContain("No post list")
    expect(pathsOf(r)).toEqual(["/queueId"])
    expect(await rowsOf(ch.id)).toBe(0)
  })
})

describe("changing and removing subscriptions", () => {
  it("patches pins and the switch, checks them as on subscribe, and deletes", async () => {
    const ch = await newChannel("Changes")
    const sub = (await subscribe(ch.id, { kind: "BROADCAST", ...INDEX_CLOSE })).body.channel.subscriptions[0]
    const at = `/v1/channels/${ch.id}/subscriptions/${sub.id}`
    const pinned = await api.patch(at, { templateVersion: "1.1.0", enabled: false })
    expect(pinned.status, pinned.text).toBe(200)
    expect(pinned.body.channel.subscriptions[0]).toMatchObject({ templateVersion: "1.1.0", enabled: false })
    const variant = await api.patch(at, { templateVariant: "compact" })
    // 1.1.0 is no build of compact: the change is checked against what it would leave.
    expectError(variant, 404, "unknown_template")
    expect(pathsOf(variant)).toEqual(["/templateVersion"])
    const badVersion = await api.patch(at, { templateVersion: "v2" })
    expectError(badVersion, 400, "schema_validation")
    expect(pathsOf(badVersion)).toEqual(["/templateVersion"])
    expectError(await api.patch(at, { enabled: "yes" }), 400, "schema_validation")
    const reset = await api.patch(at, { templateVersion: null, enabled: true })
    expect(reset.body.channel.subscriptions[0]).toMatchObject({ templateVersion: null, enabled: true })
    const both = await api.patch(at, { templateVariant: "compact", templateVersion: "1.0.1" })
    expect(both.body.channel.subscriptions[0]).toMatchObject({ templateVariant: "compact", templateVersion: "1.0.1" })

    expectError(await api.patch(`/v1/channels/${ch.id}/subscriptions/01ARZ3NDEKTSV4RRFFQ69G5FAV`, {}), 404, "not_found")
    const removed = await api.post(`${at}/delete`)
    expect(removed.status, removed.text).toBe(200)
    expect(removed.body.channel).toMatchObject({ id: ch.id, subscriptions: [] })
    expectError(await api.post(`${at}/delete`), 404, "not_found")
    expect(await rowsOf(ch.id)).toBe(0)
  })

  it("answers another workspace's channel like a missing one, and 403 without channels:write", async () => {
    const ch = await newChannel("Private subs")
    const sub = (await subscribe(ch.id, { kind: "BROADCAST", ...CURRENCY_MOVES })).body.channel.subscriptions[0]
    const other = (await workspaceWithKey(node, scopes, "Snoop")).api
    await other.post("/v1/brands", { name: "Snoop brand" })
    const missing = await subscribe("01ARZ3NDEKTSV4RRFFQ69G5FAV", { kind: "BROADCAST", ...INDEX_CLOSE }, other)
    expectError(missing, 404, "not_found")
    for (
      const r of [
        await subscribe(ch.id, { kind: "BROADCAST", ...INDEX_CLOSE }, other),
        await other.patch(`/v1/channels/${ch.id}/subscriptions/${sub.id}`, { enabled: false }),
        await other.post(`/v1/channels/${ch.id}/subscriptions/${sub.id}/delete`)
      ]
    ) {
      expectError(r, 404, "not_found")
    }
    // Another channel's subscription id under one's own channel is missing too.
    const mine = await newChannel("Mine", other)
    expectError(await other.post(`/v1/channels/${mine.id}/subscriptions/${sub.id}/delete`), 404, "not_found")
    expect(await rowsOf(ch.id)).toBe(1)

    const reader = client(node, (await admin(node).key(accountId, ["channels:read"])).apiKey)
    for (
      const r of [
        await subscribe(ch.id, { kind: "BROADCAST", ...INDEX_CLOSE }, reader),
        await reader.patch(`/v1/channels/${ch.id}/subscriptions/${sub.id}`, { enabled: false }),
        await reader.post(`/v1/channels/${ch.id}/subscriptions/${sub.id}/delete`)
      ]
    ) {
      expect(expectError(r, 403, "forbidden").message).toContain("channels:write")
    }
  })

  it("a deleted channel takes no subscription", async () => {
    const ch = await newChannel("Gone")
    await api.post(`/v1/channels/${ch.id}/delete`)
    expectError(await subscribe(ch.id, { kind: "BROADCAST", ...INDEX_CLOSE }), 404, "not_found")
    expect(await rowsOf(ch.id)).toBe(0)
  })
})
