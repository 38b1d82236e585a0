import { beforeAll, describe, expect, it } from "vitest"
import { admin, type Answer, client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"

let api: ReturnType<typeof client>
let accountId: string

const scopes = ["feeds:read", "feeds:write", "channels:read", "channels:write", "brands:write"]
const pathsOf = (r: Answer) => r.body.error.details.map((d: { path: string }) => d.path)
const HEADLINES = { sourceSlug: "news", formatSlug: "headlines" }
const feedsBySlug = async (c = api) => {
  const r = await c.get("/v1/feeds")
  expect(r.status, r.text).toBe(200)
  return new Map<string, any>(
    r.body.sources.flatMap((s: any) => s.formats.map((f: any) => [`${s.slug}/${f.slug}`, { ...f, source: s }]))
  )
}

const { db, node } = useNode({ label: "feeds_switch" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, scopes)
  api = ws.api
  accountId = ws.accountId
  await api.post("/v1/brands", { name: "House" })
})

describe("GET /v1/feeds", () => {
  it("lists the offered feeds grouped by source, each enabled and without subscribers", async () => {
    const r = await api.get("/v1/feeds")
    expect(r.status, r.text).toBe(200)
    expect(r.body.sources.map((s: { slug: string }) => s.slug)).toEqual(["markets", "football", "news"])
    expect(r.body.sources[0]).toMatchObject({ slug: "markets", entitled: true, live: true })
    expect(r.body.sources[0].formats[0]).toEqual({
      id: "fd_4b1e9c2a7d03",
      slug: "index-close",
      name: expect.any(String),
      title: expect.any(String),
      description: expect.any(String),
      templateId: "tpl_3a7c91e04b5d",
      templateName: "Market move",
      templateVariant: "standard",
      maxAgeSeconds: expect.anything(),
      live: true,
      offered: true,
      enabled: true,
      subscribers: 0,
      schedule: expect.objectContaining({ every: expect.any(String) }),
      scheduleLabel: expect.any(String)
    })
  })

  it("counts the live channels with an enabled BROADCAST subscription", async () => {
    const a = (await api.post("/v1/channels", { name: "A" })).body.channel
    const b = (await api.post("/v1/channels", { name: "B" })).body.channel
    for (const ch of [a, b]) {
      const r = await api.post(`/v1/channels/${ch.id}/subscriptions`, { kind: "BROADCAST", ...HEADLINES })
      expect(r.status, r.text).toBe(201)
    }
    expect((await feedsBySlug()).get("news/headlines").subscribers).toBe(2)
    const subId = (await api.get("/v1/channels")).body.channels[1].subscriptions[0].id
    await api.patch(`/v1/channels/${b.id}/subscriptions/${subId}`, { enabled: false })
    expect((await feedsBySlug()).get("news/headlines").subscribers).toBe(1)
  })
})

describe("PUT /v1/feeds", () => {
  it("switches a feed off and on for the workspace", async () => {
    const off = await api.put("/v1/feeds", { ...HEADLINES, enabled: false })
    expect(off.status, off.text).toBe(200)
    expect(off.body).toEqual({ ...HEADLINES, enabled: false })
    expect((await feedsBySlug()).get("news/headlines")).toMatchObject({ offered: true, enabled: false })
    const rows = await query(db.url, "SELECT feed_id, enabled FROM feed_switches WHERE workspace_id = $1", [accountId])
    expect(rows).toEqual([{ feed_id: "fd_b04c6e19f872", enabled: false }])
    const on = await api.put("/v1/feeds", { ...HEADLINES, enabled: true })
    expect(on.body).toEqual({ ...HEADLINES, enabled: true })
    expect((await feedsBySlug()).get("news/headlines").enabled).toBe(true)
  })

  it("refuses a non-boolean enabled at /enabled, unknown slugs with 404, and stores nothing", async () => {
    for (const enabled of ["no", 0, null, undefined]) {
      const r = await api.put("/v1/feeds", { sourceSlug: "markets", formatSlug: "index-close", enabled })
      expectError(r, 400, "schema_validation")
      expect(pathsOf(r)).toEqual(["/enabled"])
    }
    const source = await api.put("/v1/feeds", { sourceSlug: "weather", formatSlug: "x", enabled: false })
    expectError(source, 404, "unknown_source")
    expect(pathsOf(source)).toEqual(["/sourceSlug"])
    const format = await api.put("/v1/feeds", { sourceSlug: "markets", formatSlug: "x", enabled: false })
    expectError(format, 404, "unknown_format")
    expect(pathsOf(format)).toEqual(["/formatSlug"])
    const rows = await query(db.url, "SELECT feed_id FROM feed_switches WHERE feed_id <> 'fd_b04c6e19f872'")
    expect(rows).toEqual([])
  })

  it("403 for a feed not offered, unless a channel still listens; such a feed stays in the list", async () => {
    const crypto = await api.put("/v1/feeds", { sourceSlug: "crypto", formatSlug: "coin-moves", enabled: true })
    expect(expectError(crypto, 403, "forbidden").message).toContain("crypto/coin-moves")
    expect((await feedsBySlug()).has("crypto/coin-moves")).toBe(false)

    const withdrawn = await admin(node).put(`/admin/workspaces/${accountId}/entitlements`, {
      sources: ["markets", "football"]
    })
    expect(withdrawn.status, withdrawn.text).toBe(200)
    const feeds = await feedsBySlug()
    expect(feeds.get("news/headlines")).toMatchObject({ offered: false, subscribers: 1 })
    expect(feeds.get("news/headlines").source.entitled).toBe(false)
    expect(feeds.has("news/morning-briefing")).toBe(false)
    const listened = await api.put("/v1/feeds", { ...HEADLINES, enabled: false })
    expect(listened.status, listened.text).toBe(200)
    const quiet = await api.put("/v1/feeds", { sourceSlug: "news", formatSlug: "morning-briefing", enabled: false })
    expect(expectError(quiet, 403, "forbidden").message).toContain("news/morning-briefing")
    await admin(node).put(`/admin/workspaces/${accountId}/entitlements`, { sources: ["markets", "football", "news"] })
  })

  it("another workspace has its own switches and counts", async () => {
    const other = (await workspaceWithKey(node, scopes, "Other")).api
    expect((await feedsBySlug(other)).get("news/headlines")).toMatchObject({ enabled: true, subscribers: 0 })
  })

  it("403 naming the permission without feeds:read or feeds:write", async () => {
    const reader = client(node, (await admin(node).key(accountId, ["feeds:read"])).apiKey)
    expect((await reader.get("/v1/feeds")).status).toBe(200)
    const put = await reader.put("/v1/feeds", { ...HEADLINES, enabled: true })
    expect(expectError(put, 403, "forbidden").message).toContain("feeds:write")
    const none = client(node, (await admin(node).key(accountId, ["channels:read"])).apiKey)
    expect(expectError(await none.get("/v1/feeds"), 403, "forbidden").message).toContain("feeds:read")
  })
})
