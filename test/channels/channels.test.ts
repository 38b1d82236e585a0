import { beforeAll, describe, expect, it } from "vitest"
import { admin, type Answer, client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"

let api: ReturnType<typeof client>
let accountId: string
let brand: { id: string; name: string }

const scopes = ["channels:read", "channels:write", "brands:read", "brands:write"]
const pathsOf = (r: Answer) => r.body.error.details.map((d: { path: string }) => d.path)
const names = async (c = api) => (await c.get("/v1/channels")).body.channels.map((ch: { name: string }) => ch.name)
const newBrand = async (c: ReturnType<typeof client>, name: string) => (await c.post("/v1/brands", { name })).body.brand

const { db, node } = useNode({ label: "channels" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, scopes)
  api = ws.api
  accountId = ws.accountId
  brand = await newBrand(api, "House")
})

describe("channels", () => {
  it("lists the ten surfaces with platform, label and ratios", async () => {
    const r = await api.get("/v1/channels/surfaces")
    expect(r.status).toBe(200)
    expect(r.body.surfaces).toHaveLength(10)
    expect(r.body.surfaces).toContainEqual({
      surface: "instagram-feed",
      platform: "instagram",
      label: "Instagram feed",
      ratios: ["4x5", "1x1"]
    })
    expect(r.body.surfaces).toContainEqual({
      surface: "download",
      platform: "download",
      label: "no specific platform",
      ratios: ["9x16", "4x5", "1x1", "16x9"]
    })
  })

  it("creates with every default filled in and lists it", async () => {
    const r = await api.post("/v1/channels", {})
    expect(r.status, r.text).toBe(201)
    expect(r.body.channel).toMatchObject({
      name: "New channel 1",
      platform: "instagram",
      surface: "instagram-reels",
      surfaceLabel: "Instagram Reels",
      ratio: "9x16",
      locale: "en",
      enabled: true,
      approval: "NONE",
      deliverByEmail: true,
      deliverByWebhook: false,
      posting: { allowComments: true, brandedContent: false, hashtagsAsFirstComment: false },
      syndicates: false,
      syndicationToken: null,
      brand: { id: brand.id, name: "House", enabled: true },
      subscriptions: []
    })
    expect(r.body.channel.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    const second = await api.post("/v1/channels")
    expect(second.status).toBe(201)
    expect(second.body.channel.name).toBe("New channel 2")
    const list = await api.get("/v1/channels")
    expect(list.status).toBe(200)
    expect(list.body.channels.map((c: { id: string }) => c.id)).toEqual(
      expect.arrayContaining([r.body.channel.id, second.body.channel.id])
    )
  })

  it("fixes a single ratio, takes the choice where there are several, keeps only the surface's switches", async () => {
    const tiktok = await api.post("/v1/channels", { name: "Tok", surface: "tiktok", ratio: "16x9", locale: "pt-BR" })
    expect(tiktok.status).toBe(201)
    expect(tiktok.body.channel).toMatchObject({ ratio: "9x16", locale: "pt-BR", platform: "tiktok" })
    expect(tiktok.body.channel.posting).toEqual({ allowComments: true, brandedContent: false, allowDuetStitch: true })
    const telegram = await api.post("/v1/channels", {
      name: "Tg",
      surface: "telegram",
      ratio: "1x1",
      posting: { silent: true }
    })
    expect(telegram.body.channel).toMatchObject({ ratio: "1x1", posting: { silent: true } })
    const download = await api.post("/v1/channels", { name: "Dl", surface: "download", ratio: "4x5" })
    expect(download.body.channel.posting).toEqual({})
  })

  it("refuses bad input with the field named and stores nothing", async () => {
    const before = await names()
    const cases: Array<[unknown, number, string, string]> = [
      [{ name: "Feed", surface: "instagram-feed" }, 400, "schema_validation", "/ratio"],
      [{ name: "Feed", surface: "linkedin", ratio: "9x16" }, 400, "schema_validation", "/ratio"],
      [{ name: "Feed", surface: "myspace" }, 400, "schema_validation", "/surface"],
      [{ name: "Feed", locale: "xx" }, 400, "schema_validation", "/locale"],
      [{ name: "Feed", posting: { silent: true } }, 400, "schema_validation", "/posting/silent"],
      [
        { name: "Feed", surface: "tiktok", posting: { hashtagsAsFirstComment: true } },
        400,
        "schema_validation",
        "/posting/hashtagsAsFirstComment"
      ],
      [{ name: "Feed", deliverByEmail: false }, 400, "schema_validation", "/deliverByEmail"],
      [{ name: "Feed", deliverByEmail: false, deliverByWebhook: false }, 400, "schema_validation", "/deliverByEmail"],
      [{ name: "x".repeat(81) }, 400, "schema_validation", "/name"],
      [{ name: "" }, 400, "schema_validation", "/name"],
      [{ name: "Feed", approval: "ALWAYS" }, 400, "schema_validation", "/approval"],
      [{ name: "Feed", deliverByWebhook: true }, 409, "conflict", "/deliverByWebhook"],
      [{ name: "Feed", brandId: "01ARZ3NDEKTSV4RRFFQ69G5FAV" }, 404, "not_found", "/brandId"],
      [{ name: "New channel 1" }, 409, "conflict", "/name"]
    ]
    for (const [body, status, code, path] of cases) {
      const r = await api.post("/v1/channels", body)
      expect(r.status, JSON.stringify(body)).toBe(status)
      expect(r.body.error.code, JSON.stringify(body)).toBe(code)
      expect(pathsOf(r), JSON.stringify(body)).toContain(path)
    }
    const choices = await api.post("/v1/channels", { surface: "instagram-feed" })
    expect(choices.body.error.message).toContain("4x5, 1x1")
    expect(await names()).toEqual(before)
  })

  it("refuses a create without a brand ('Make a brand first'), takes a webhook once there is one", async () => {
    const bare = await workspaceWithKey(node, scopes, "Bare")
    const r = await bare.api.post("/v1/channels", { name: "First" })
    expect(r.status).toBe(409)
    expect(r.body.error.code).toBe("conflict")
    expect(r.body.error.message).toContain("Make a brand first")
    expect(await names(bare.api)).toEqual([])

    const off = await newBrand(bare.api, "Off")
    await bare.api.patch(`/v1/brands/${off.id}`, { enabled: false })
    expect((await bare.api.post("/v1/channels", {})).status).toBe(409)
    const older = await newBrand(bare.api, "Older")
    await newBrand(bare.api, "Newer")
    const webhook = { url: "https://93.184.215.14/clips" }
    const hooked = await admin(node).put(`/admin/workspaces/${bare.accountId}/webhook`, webhook)
    expect(hooked.status, hooked.text).toBe(200)
    const ok = await bare.api.post("/v1/channels", { deliverByWebhook: true, deliverByEmail: false })
    expect(ok.status, ok.text).toBe(201)
    expect(ok.body.channel).toMatchObject({ deliverByWebhook: true, deliverByEmail: false, brand: { id: older.id } })
  })

  it("patches: a switch alone laid over the other, both false refused, enabled, deprecated fields stored", async () => {
    const ch = (await api.post("/v1/channels", { name: "Patchy" })).body.channel
    const refused = await api.patch(`/v1/channels/${ch.id}`, { deliverByEmail: false })
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe("schema_validation")
    expect(pathsOf(refused)).toContain("/deliverByEmail")
    const hook = await api.patch(`/v1/channels/${ch.id}`, { deliverByWebhook: true })
    expect(hook.status).toBe(409)
    expect(pathsOf(hook)).toContain("/deliverByWebhook")
    const r = await api.patch(`/v1/channels/${ch.id}`, {
      enabled: false,
      approval: "PER_POST",
      syndicates: true,
      syndicationToken: "tok",
      posting: { brandedContent: true }
    })
    expect(r.status, r.text).toBe(200)
    expect(r.body.channel).toMatchObject({
      enabled: false,
      approval: "PER_POST",
      deliverByEmail: true,
      syndicates: true,
      syndicationToken: "tok",
      posting: { allowComments: true, brandedContent: true, hashtagsAsFirstComment: false }
    })
    const moved = await api.patch(`/v1/channels/${ch.id}`, { surface: "linkedin", ratio: "16x9" })
    expect(moved.body.channel).toMatchObject({ platform: "linkedin", ratio: "16x9", posting: { allowComments: true } })
    expect(moved.body.channel.posting).toEqual({ allowComments: true })
    const badSwitch = await api.patch(`/v1/channels/${ch.id}`, { posting: { silent: true } })
    expect(pathsOf(badSwitch)).toEqual(["/posting/silent"])
    expect((await api.patch(`/v1/channels/${ch.id}`, { name: "New channel 1" })).status).toBe(409)
    const listed = (await api.get("/v1/channels")).body.channels.find((c: { id: string }) => c.id === ch.id)
    expect(listed).toMatchObject({ surface: "linkedin", enabled: false, syndicationToken: "tok" })
  })

  it("deletes, keeping history under ' (removed)' and freeing the name", async () => {
    const ch = (await api.post("/v1/channels", { name: "Short-lived" })).body.channel
    const r = await api.post(`/v1/channels/${ch.id}/delete`)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ deleted: true, cancelled: 0 })
    expect(await names()).not.toContain("Short-lived")
    expect((await api.post(`/v1/channels/${ch.id}/delete`)).status).toBe(404)
    expect((await api.patch(`/v1/channels/${ch.id}`, { enabled: true })).status).toBe(404)
    expect((await api.post("/v1/channels", { name: "Short-lived" })).status).toBe(201)
    const rows = await query<{ name: string }>(db.url, "SELECT name FROM channels WHERE id = $1", [ch.id])
    expect(rows.map((row) => row.name)).toEqual(["Short-lived (removed)"])
  })

  it("answers another workspace's channel exactly like a missing one, and 403 without channels:write", async () => {
    const ch = (await api.post("/v1/channels", { name: "Private" })).body.channel
    const other = (await workspaceWithKey(node, scopes, "Other")).api
    await newBrand(other, "Theirs")
    const missing = await other.patch("/v1/channels/01ARZ3NDEKTSV4RRFFQ69G5FAV", { enabled: false })
    const patched = await other.patch(`/v1/channels/${ch.id}`, { enabled: false })
    for (const r of [patched, await other.post(`/v1/channels/${ch.id}/delete`)]) {
      expect(r.status).toBe(404)
      expect(r.body.error.code).toBe(missing.body.error.code)
    }
    expect(await names(other)).toEqual([])
    expect((await other.post("/v1/channels", { name: "Private", brandId: brand.id })).status).toBe(404)

    const reader = client(node, (await admin(node).key(accountId, ["channels:read"])).apiKey)
    expect((await reader.get("/v1/channels")).status).toBe(200)
    for (
      const r of [
        await reader.post("/v1/channels", { name: "Nope" }),
        await reader.patch(`/v1/channels/${ch.id}`, { enabled: false }),
        await reader.post(`/v1/channels/${ch.id}/delete`)
      ]
    ) {
      expect(r.status).toBe(403)
      expect(r.body.error.code).toBe("forbidden")
      expect(r.body.error.message).toContain("channels:write")
    }
    const none = client(node, (await admin(node).key(accountId, ["brands:read"])).apiKey)
    const listRefused = await none.get("/v1/channels")
    expect(listRefused.status).toBe(403)
    expect(listRefused.body.error.message).toContain("channels:read")
  })
})

describe("brand delete with channels", () => {
  it("refuses a worn brand without moveTo, and with moveTo moves its channels in the same step", async () => {
    const ws = await workspaceWithKey(node, scopes, "Movers")
    const from = await newBrand(ws.api, "From")
    const to = await newBrand(ws.api, "To")
    const a = (await ws.api.post("/v1/channels", { name: "A", brandId: from.id })).body.channel
    const b = (await ws.api.post("/v1/channels", { name: "B", brandId: from.id })).body.channel
    const c = (await ws.api.post("/v1/channels", { name: "C", brandId: to.id })).body.channel

    const listed = (await ws.api.get("/v1/brands")).body.brands
    expect(listed.find((x: { id: string }) => x.id === from.id).channels)
      .toEqual([{ id: a.id, name: "A" }, { id: b.id, name: "B" }])

    const refused = await ws.api.post(`/v1/brands/${from.id}/delete`)
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe("conflict")
    expect(refused.body.error.message).toContain("2 channels")
    expect(pathsOf(refused)).toEqual(["/moveTo"])
    expect((await ws.api.get(`/v1/brands/${from.id}`)).status).toBe(200)

    const moved = await ws.api.post(`/v1/brands/${from.id}/delete`, { moveTo: to.id })
    expect(moved.status, moved.text).toBe(200)
    expect(moved.body).toEqual({ deleted: true, moved: 2 })
    const brands = (await ws.api.get("/v1/brands")).body.brands
    expect(brands.map((x: { id: string }) => x.id)).toEqual([to.id])
    expect(brands[0].channels.map((x: { name: string }) => x.name)).toEqual(["A", "B", "C"])
    const channels = (await ws.api.get("/v1/channels")).body.channels
    for (const ch of channels) expect(ch.brand).toEqual({ id: to.id, name: "To", enabled: true })
    expect(channels.map((x: { id: string }) => x.id)).toEqual([a.id, b.id, c.id])

    // A brand no channel wears goes without moveTo.
    const spare = await newBrand(ws.api, "Spare")
    expect((await ws.api.post(`/v1/brands/${spare.id}/delete`)).body).toEqual({ deleted: true, moved: 0 })
  })
})
