import { Either } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { describeBuild } from "../../src/templates/Describe.js"
import { resolveBuild } from "../../src/templates/TemplateRegistry.js"
import { admin, call, client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"

const MARKET = "tpl_3a7c91e04b5d"
const INDEX_CLOSE = "fd_4b1e9c2a7d03"
const COIN_MOVES = "fd_71f3a8d2c0e5"

let ws: Awaited<ReturnType<typeof workspaceWithKey>>
let anonymous: ReturnType<typeof client>
let operator: ReturnType<typeof admin>

const { db, node } = useNode({ label: "feeds_http" })

beforeAll(async () => {
  ws = await workspaceWithKey(node, ["templates:read", "feeds:read"])
  anonymous = client(node)
  operator = admin(node)
})

const entitledOf = (body: any) =>
  Object.fromEntries((body.sources as Array<any>).map((source) => [source.slug, source.entitled]))

const rows = (accountId: string) =>
  query(db.url, "SELECT source_slug, entitled FROM feed_entitlements WHERE workspace_id = $1 ORDER BY 1", [accountId])

describe("GET /v1/catalogue", () => {
  it("lists every source and format with its payload schema, unauthenticated", async () => {
    const r = await anonymous.get("/v1/catalogue")
    expect(r.status, r.text).toBe(200)
    expect(r.headers.get("cache-control")).toBe("public, max-age=30")
    expect(r.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/)
    expect(r.body.sources.map((s: any) => s.slug)).toEqual(["markets", "football", "news", "crypto"])
    expect(entitledOf(r.body)).toEqual({ markets: true, football: true, news: true, crypto: false })
    const markets = r.body.sources[0]
    expect(markets).toMatchObject({ slug: "markets", milestone: 3, live: true })
    const format = markets.formats[0]
    expect(format).toMatchObject({
      id: INDEX_CLOSE,
      slug: "index-close",
      templateId: MARKET,
      templateName: "Market move",
      templateVariant: "standard",
      maxAgeSeconds: 3600,
      live: true,
      schedule: { every: "weekday", time: "17:45" },
      scheduleLabel: "Weekdays at 17:45"
    })
    const build = Either.getOrThrow(resolveBuild(MARKET, { variant: "standard" }))
    expect(format.payloadSchema).toEqual(describeBuild(build).jsonSchema)
    const all = r.body.sources.flatMap((s: any) => s.formats)
    for (const f of all) {
      expect(f.id).toMatch(/^fd_[0-9a-f]{12}$/)
      expect(f.payloadSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema")
    }
    expect(new Set(all.map((f: any) => f.id)).size).toBe(all.length)
    expect(all.some((f: any) => f.maxAgeSeconds === null)).toBe(true)
  })

  it("answers 304 on a matching If-None-Match and 200 on another", async () => {
    const first = await anonymous.get("/v1/catalogue")
    const etag = first.headers.get("etag")!
    const cached = await anonymous.get("/v1/catalogue", { "if-none-match": etag })
    expect(cached.status).toBe(304)
    expect(cached.text).toBe("")
    expect(cached.headers.get("etag")).toBe(etag)
    expect(cached.headers.get("cache-control")).toBe("public, max-age=30")
    expect((await anonymous.get("/v1/catalogue", { "if-none-match": "\"other\"" })).status).toBe(200)
  })

  it("with a key, `entitled` follows the workspace's entitlements, and the etag with it", async () => {
    const mine = await workspaceWithKey(node, ["templates:read"])
    const before = await mine.api.get("/v1/catalogue")
    expect(entitledOf(before.body)).toEqual({ markets: true, football: true, news: true, crypto: false })
    const set = await operator.put(`/admin/workspaces/${mine.accountId}/entitlements`, { sources: ["crypto", "news"] })
    expect(set.status, set.text).toBe(200)
    expect(set.body).toEqual({ sources: ["news", "crypto"] })
    const after = await mine.api.get("/v1/catalogue")
    expect(entitledOf(after.body)).toEqual({ markets: false, football: false, news: true, crypto: true })
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"))
    expect((await mine.api.get("/v1/catalogue", { "if-none-match": before.headers.get("etag")! })).status).toBe(200)
    // Another workspace and the anonymous caller still see the defaults.
    expect(entitledOf((await ws.api.get("/v1/catalogue")).body).crypto).toBe(false)
    expect(entitledOf((await anonymous.get("/v1/catalogue")).body).crypto).toBe(false)
    const unset = await operator.put(`/admin/workspaces/${mine.accountId}/entitlements`, {
      sources: ["markets", "football", "news"]
    })
    expect(unset.body).toEqual({ sources: ["markets", "football", "news"] })
    expect(entitledOf((await mine.api.get("/v1/catalogue")).body))
      .toEqual({ markets: true, football: true, news: true, crypto: false })
    expect(await rows(mine.accountId)).toEqual([])
  })

  it("a key without templates:read is 403 naming it; a bad key 401", async () => {
    const streamsOnly = await workspaceWithKey(node, ["streams:read"])
    const error = expectError(await streamsOnly.api.get("/v1/catalogue"), 403, "forbidden")
    expect(error.message).toContain("templates:read")
    expectError(await client(node, "nope").get("/v1/catalogue"), 401, "unauthenticated")
  })
})

describe("GET /v1/formats/feed/...", () => {
  const expected = () => describeBuild(Either.getOrThrow(resolveBuild(MARKET, { variant: "standard" })))

  it("describes a feed by id and by slugs, unauthenticated, as the template route does", async () => {
    const byId = await anonymous.get(`/v1/formats/feed/${INDEX_CLOSE}`)
    expect(byId.status, byId.text).toBe(200)
    expect(byId.body).toEqual(JSON.parse(JSON.stringify(expected())))
    const template = await anonymous.get(`/v1/formats/template/${MARKET}?variant=standard`)
    expect(byId.body).toEqual(template.body)
    const bySlugs = await ws.api.get("/v1/formats/feed/markets/index-close")
    expect(bySlugs.status).toBe(200)
    expect(bySlugs.body).toEqual(byId.body)
    const compact = await anonymous.get(`/v1/formats/feed/${COIN_MOVES}`)
    expect(compact.body).toMatchObject({ templateId: MARKET, variant: "compact", version: "1.0.1" })
  })

  it("answers unknown_source and unknown_format", async () => {
    const source = expectError(await anonymous.get("/v1/formats/feed/weather/today"), 404, "unknown_source")
    expect(source.message).toContain("weather")
    const format = expectError(await anonymous.get("/v1/formats/feed/markets/today"), 404, "unknown_format")
    expect(format.message).toContain("index-close")
    expectError(await anonymous.get("/v1/formats/feed/fd_000000000000"), 404, "unknown_format")
  })

  it("a key without templates:read is 403 naming it", async () => {
    const streamsOnly = await workspaceWithKey(node, ["streams:read"])
    const error = expectError(await streamsOnly.api.get(`/v1/formats/feed/${INDEX_CLOSE}`), 403, "forbidden")
    expect(error.message).toContain("templates:read")
  })
})

describe("GET /v1/feeds/{feedId}/reference", () => {
  it("lists the template's variants and builds with the feed's own variant", async () => {
    const r = await ws.api.get(`/v1/feeds/${COIN_MOVES}/reference`)
    expect(r.status, r.text).toBe(200)
    expect(r.body).toMatchObject({
      feedId: COIN_MOVES,
      sourceSlug: "crypto",
      formatSlug: "coin-moves",
      templateVariant: "compact",
      templateId: MARKET,
      name: "Market move"
    })
    const compact = r.body.variants.find((v: any) => v.name === "compact")
    expect(compact.versions).toEqual([
      { version: "1.0.0", ratios: ["9x16", "1x1"] },
      { version: "1.0.1", ratios: ["9x16", "4x5", "1x1"] }
    ])
  })

  it("needs feeds:read, answers unknown feeds as unknown_format, and is not public", async () => {
    const templatesOnly = await workspaceWithKey(node, ["templates:read"])
    const error = expectError(await templatesOnly.api.get(`/v1/feeds/${INDEX_CLOSE}/reference`), 403, "forbidden")
    expect(error.message).toContain("feeds:read")
    expectError(await anonymous.get(`/v1/feeds/${INDEX_CLOSE}/reference`), 401, "unauthenticated")
    expectError(await ws.api.get("/v1/feeds/fd_000000000000/reference"), 404, "unknown_format")
  })
})

describe("GET /v1/feeds/{feedId}/reference/{ratio}", () => {
  const fetchClip = async (path: string, headers: Record<string, string> = {}) => {
    const authorization = `Bearer ${ws.apiKey}`
    const response = await fetch(`${node.url}${path}`, { headers: { authorization, ...headers } })
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
  }

  it("draws the feed's variant at its newest build once, shared with the template's clip", async () => {
    const first = await fetchClip(`/v1/feeds/${COIN_MOVES}/reference/1x1`)
    expect(first.status, first.bytes.toString("utf8").slice(0, 300)).toBe(200)
    expect(first.headers.get("content-type")).toBe("video/mp4")
    expect(first.bytes.subarray(4, 8).toString("latin1")).toBe("ftyp")
    expect(first.headers.get("x-preview-version")).toBe("1.0.1")
    expect(first.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/)
    const template = await fetchClip(`/v1/templates/${MARKET}/reference/1x1?variant=compact&version=1.0.1`)
    expect(template.headers.get("etag")).toBe(first.headers.get("etag"))
    const etag = first.headers.get("etag")!
    const cached = await fetchClip(`/v1/feeds/${COIN_MOVES}/reference/1x1`, { "if-none-match": etag })
    expect(cached.status).toBe(304)
    const drawn = node.output().split("\n")
      .filter((line) => line.includes("Reference clip drawn") && line.includes("/1x1-"))
    expect(drawn).toHaveLength(1)
    const older = await fetchClip(`/v1/feeds/${COIN_MOVES}/reference/1x1?version=1.0.0`)
    expect(older.status).toBe(200)
    expect(older.headers.get("x-preview-version")).toBe("1.0.0")
  })

  it("refuses bad shapes, versions, unknown variants and feeds with the spec's codes", async () => {
    const shape = await ws.api.get(`/v1/feeds/${COIN_MOVES}/reference/square`)
    expect(expectError(shape, 400, "schema_validation").details[0].path).toBe("/ratio")
    expectError(await ws.api.get(`/v1/feeds/${COIN_MOVES}/reference/16x9`), 400, "ratio_not_supported")
    const badVersion = await ws.api.get(`/v1/feeds/${COIN_MOVES}/reference/1x1?version=1.0`)
    const version = expectError(badVersion, 400, "schema_validation")
    expect(version.details[0].path).toBe("/version")
    expectError(await ws.api.get(`/v1/feeds/${COIN_MOVES}/reference/1x1?variant=huge`), 404, "unknown_template")
    expectError(await ws.api.get("/v1/feeds/fd_000000000000/reference/1x1"), 404, "unknown_format")
    const templatesOnly = await workspaceWithKey(node, ["templates:read"])
    const error = expectError(await templatesOnly.api.get(`/v1/feeds/${COIN_MOVES}/reference/1x1`), 403, "forbidden")
    expect(error.message).toContain("feeds:read")
  })
})

describe("PUT /admin/workspaces/{accountId}/entitlements", () => {
  it("stores only the differences from the defaults and answers the set in catalogue order", async () => {
    const { accountId } = await operator.workspace("Entitled")
    const r = await operator.put(`/admin/workspaces/${accountId}/entitlements`, {
      sources: ["crypto", "markets", "crypto"]
    })
    expect(r.status, r.text).toBe(200)
    expect(r.body).toEqual({ sources: ["markets", "crypto"] })
    expect(await rows(accountId)).toEqual([
      { source_slug: "crypto", entitled: true },
      { source_slug: "football", entitled: false },
      { source_slug: "news", entitled: false }
    ])
    const none = await operator.put(`/admin/workspaces/${accountId}/entitlements`, { sources: [] })
    expect(none.body).toEqual({ sources: [] })
  })

  it("refuses an unknown slug at /sources/<i> and stores nothing", async () => {
    const { accountId } = await operator.workspace("Refused")
    const put = (body: unknown) => operator.put(`/admin/workspaces/${accountId}/entitlements`, body)
    expect((await put({ sources: ["markets", "crypto"] })).status).toBe(200)
    const before = await rows(accountId)
    expect(before).toHaveLength(3)
    const error = expectError(await put({ sources: ["news", "weather", "x"] }), 400, "schema_validation")
    expect(error.details.map((d: any) => d.path)).toEqual(["/sources/1", "/sources/2"])
    expect(await rows(accountId)).toEqual(before)
    expect(expectError(await put({ sources: "news" }), 400, "schema_validation").details[0].path).toBe("/sources")
    expect(expectError(await put({ sources: [1] }), 400, "schema_validation").details[0].path).toBe("/sources/0")
    expect(expectError(await put({}), 400, "schema_validation").details[0].path).toBe("/sources")
    expect(await rows(accountId)).toEqual(before)
  })

  it("answers 404 for an unknown workspace and 401 without the admin token", async () => {
    const missing = await operator.put("/admin/workspaces/01J00000000000000000000000/entitlements", { sources: [] })
    expectError(missing, 404, "not_found")
    const path = `/admin/workspaces/${ws.accountId}/entitlements`
    expectError(await call(node.url, "PUT", path, { key: ws.apiKey, body: { sources: [] } }), 401, "unauthenticated")
    expectError(await call(node.url, "PUT", path, { body: { sources: [] } }), 401, "unauthenticated")
  })
})

describe("OpenAPI", () => {
  it("documents every feeds route with a summary and the group with a description", async () => {
    const doc = (await anonymous.get("/v1/openapi.json")).body
    const operations = [
      ["/v1/catalogue", "get"],
      ["/v1/formats/feed/{feedId}", "get"],
      ["/v1/formats/feed/{source}/{format}", "get"],
      ["/v1/feeds/{feedId}/reference", "get"],
      ["/v1/feeds/{feedId}/reference/{ratio}", "get"],
      ["/admin/workspaces/{accountId}/entitlements", "put"]
    ] as const
    for (const [path, method] of operations) {
      const operation = doc.paths[path]?.[method]
      expect(operation, path).toBeDefined()
      expect(operation.summary, path).toMatch(/\w/)
      expect(operation.description, path).toMatch(/\w/)
    }
    expect(doc.tags.find((tag: any) => tag.name === "Feeds")?.description).toMatch(/\w/)
  })
})
