import { beforeAll, describe, expect, it } from "vitest"
import { PALETTE_COLOR_KEYS } from "../../src/brands/Palette.js"
import { type client, workspaceWithKey } from "../support/Client.js"
import { useNode } from "../support/Rig.js"

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/
const HEX = /^#[0-9a-f]{6}$/

let api: ReturnType<typeof client>
let other: ReturnType<typeof client>

const { node } = useNode({ label: "brands" })

beforeAll(async () => {
  api = (await workspaceWithKey(node, ["brands:read", "brands:write"])).api
  other = (await workspaceWithKey(node, ["brands:read", "brands:write"], "Other")).api
})

const create = async (body?: Record<string, unknown>) => {
  const r = await api.post("/v1/brands", body ?? {})
  expect(r.status, r.text).toBe(201)
  return r.body.brand as { id: string; name: string; enabled: boolean; style: any }
}

const pathsOf = (r: { body: any }) => r.body.error.details.map((d: { path: string }) => d.path)

describe("brands", () => {
  it("drafts the first free name with an empty identity and stores nothing", async () => {
    const fresh = (await workspaceWithKey(node, ["brands:read", "brands:write"], "Drafts")).api
    const draft = await fresh.get("/v1/brands/draft")
    expect([draft.status, draft.body.name]).toEqual([200, "New brand 1"])
    expect(Object.values(draft.body.style.identity)).toEqual(["", "", "", "", ""])
    expect(draft.body.style.design.first).toMatch(/^#[0-9A-F]{6}$/)
    expect((await fresh.get("/v1/brands/draft")).body.name).toBe("New brand 1")
    expect((await fresh.get("/v1/brands")).body).toEqual({ brands: [] })
    const first = await fresh.post("/v1/brands", {})
    expect(first.status).toBe(201)
    expect(first.body.brand).toMatchObject({ id: expect.stringMatching(ULID), name: "New brand 1", enabled: true })
    expect(first.body.brand.style.identity).toEqual({ ...draft.body.style.identity, name: "New brand 1" })
    expect((await fresh.get("/v1/brands/draft")).body.name).toBe("New brand 2")
    const second = await fresh.post("/v1/brands")
    expect([second.status, second.body.brand.name]).toEqual([201, "New brand 2"])
    await fresh.post(`/v1/brands/${first.body.brand.id}/delete`)
    expect((await fresh.get("/v1/brands/draft")).body.name).toBe("New brand 1")
  })

  it("creates with a name and a partial style, gets it, and refuses a name in use", async () => {
    const style = { design: { first: "#112233" }, badge: { primaryLine: "LIVE" } }
    const brand = await create({ name: "Acme", style })
    expect(brand.style.identity.name).toBe("Acme")
    expect(brand.style.design.first).toBe("#112233")
    expect(brand.style.badge.primaryLine).toBe("LIVE")
    const got = await api.get(`/v1/brands/${brand.id}`)
    expect(got.status).toBe(200)
    expect(got.body).toEqual({ brand })
    const taken = await api.post("/v1/brands", { name: "acme" })
    expect(taken.status).toBe(409)
    expect(taken.body.error.code).toBe("conflict")
  })

  it("applies a retried create (same x-request-id) once, with or without a name", async () => {
    for (
      const [requestId, body] of [["01JZZZZZZZZZZZZZZZZZZZZZZ2", {}], ["01JZZZZZZZZZZZZZZZZZZZZZZ3", {
        name: "Retried"
      }]] as const
    ) {
      const first = await api.post("/v1/brands", body, { "x-request-id": requestId })
      const second = await api.post("/v1/brands", body, { "x-request-id": requestId })
      expect(first.status, first.text).toBe(201)
      expect(second.status, second.text).toBe(201)
      expect(second.body.brand.id).toBe(first.body.brand.id)
      expect(first.body.brand.id).toMatch(ULID)
    }
    const names = (await api.get("/v1/brands")).body.brands.map((b: { name: string }) => b.name)
    expect(names.filter((n: string) => n === "Retried")).toHaveLength(1)
  })

  it("lists every brand with its flattened summary and the channels wearing it", async () => {
    const brand = await create({ name: "Listed", style: { design: { first: "#aa0000", second: "#00aa00" } } })
    const list = await api.get("/v1/brands")
    expect(list.status).toBe(200)
    const row = list.body.brands.find((b: { id: string }) => b.id === brand.id)
    expect(row).toMatchObject({
      ...{ id: brand.id, name: "Listed", enabled: true, primaryColor: "#aa0000", secondaryColor: "#00aa00" },
      ...{ logoUrl: null, badgeEnabled: false, badgeKind: "text", backgroundKind: "color", hasSound: false },
      ...{ introRatios: [], outroRatios: [], channels: [] }
    })
    expect(Date.parse(row.updatedAt)).not.toBeNaN()
  })

  it("renames through style.identity.name unless another brand has the name, and then still saves", async () => {
    const a = await create({ name: "Alpha" })
    await create({ name: "Beta" })
    const renamed = await api.patch(`/v1/brands/${a.id}`, { style: { identity: { name: "Gamma" } } })
    expect(renamed.status).toBe(200)
    expect(renamed.body.brand.name).toBe("Gamma")
    expect(renamed.body.brand.style.identity.name).toBe("Gamma")

    const kept = await api.patch(`/v1/brands/${a.id}`, {
      style: { identity: { name: "Beta", titlePrimary: "Evening news" } }
    })
    expect(kept.status).toBe(200)
    expect(kept.body.brand.name).toBe("Gamma")
    expect(kept.body.brand.style.identity).toMatchObject({ name: "Beta", titlePrimary: "Evening news" })

    const explicit = await api.patch(`/v1/brands/${a.id}`, { name: "Beta" })
    expect(explicit.status).toBe(409)
    const plain = await api.patch(`/v1/brands/${a.id}`, { name: "Delta", enabled: false })
    expect(plain.body.brand).toMatchObject({ name: "Delta", enabled: false })
    expect((await api.get(`/v1/brands/${a.id}`)).body.brand.name).toBe("Delta")

    const racers = [await create({ name: "Racer 1" }), await create({ name: "Racer 2" })]
    const rename = { style: { identity: { name: "Winner" } } }
    const race = await Promise.all(racers.map((b) => api.patch(`/v1/brands/${b.id}`, rename)))
    expect(race.map((r) => r.status)).toEqual([200, 200])
    expect(race.filter((r) => r.body.brand.name === "Winner")).toHaveLength(1)
  })

  it("ignores file references on patch and controls badge, intro/outro switches and background colour", async () => {
    const brand = await create({ name: "Files" })
    const file = { assetId: "01J00000000000000000000000", fileName: "x.png", mimeType: "image/png", url: "https://x" }
    const badge = { kind: "image", enabled: true, primaryLine: "BREAKING", secondaryLine: "now" }
    const r = await api.patch(`/v1/brands/${brand.id}`, {
      style: {
        logo: file,
        badge: { ...badge, asset: { default: file } },
        background: { kind: "color", color: "#101010", asset: { default: file } },
        intro: { enabled: false, clips: { "9x16": { default: file } } },
        outro: { enabled: false, clips: { "1x1": { default: file } } },
        sound: { enabled: false, asset: file },
        fonts: { primary: file },
        design: { second: "#ABCDEF" }
      }
    })
    expect(r.status, r.text).toBe(200)
    const style = r.body.brand.style
    expect(style.logo).toBeNull()
    expect(style.badge).toEqual({ ...badge, asset: null })
    expect(style.background).toEqual({ kind: "color", color: "#101010", asset: null })
    expect(style.intro).toEqual({ enabled: false, clips: {} })
    expect(style.outro).toEqual({ enabled: false, clips: {} })
    expect(style.sound).toEqual({ enabled: false, asset: null })
    expect(style.fonts).toEqual(brand.style.fonts)
    expect(style.design).toEqual({ ...brand.style.design, second: "#ABCDEF" })
    expect(style.text).toEqual(brand.style.text)
  })

  it("validates style values with pointers into the body", async () => {
    const brand = await create({ name: "Valid" })
    const cases: Array<[unknown, string]> = [
      [{ design: { first: "red" } }, "/style/design/first"],
      [{ accent: { positive: "#12345" } }, "/style/accent/positive"],
      [{ text: { primary: { size: -4 } } }, "/style/text/primary/size"],
      [{ text: { secondary: { color: "blue" } } }, "/style/text/secondary/color"],
      [{ background: { kind: "image" } }, "/style/background/kind"],
      [{ badge: { kind: "banner" } }, "/style/badge/kind"],
      [{ safeAreas: { "9x16": { top: -1, right: 0, bottom: 0, left: 0 } } }, "/style/safeAreas/9x16/top"]
    ]
    for (const [style, path] of cases) {
      const r = await api.patch(`/v1/brands/${brand.id}`, { style })
      expect(r.status, JSON.stringify(style)).toBe(400)
      expect(r.body.error.code).toBe("schema_validation")
      expect(pathsOf(r)).toContain(path)
    }
    expect(pathsOf(await api.post("/v1/brands", { style: { design: { fourth: "#GGGGGG" } } })))
      .toContain("/style/design/fourth")
    expect(pathsOf(await api.post("/v1/brands", { name: "" }))).toContain("/name")
  })

  it("deletes without moveTo, and with moveTo only onto another live brand of the workspace", async () => {
    const gone = await create({ name: "Gone" })
    const r = await api.post(`/v1/brands/${gone.id}/delete`)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ deleted: true, moved: 0 })
    expect((await api.get(`/v1/brands/${gone.id}`)).status).toBe(404)
    expect((await api.get("/v1/brands")).body.brands.map((b: { id: string }) => b.id)).not.toContain(gone.id)
    expect((await api.post(`/v1/brands/${gone.id}/delete`)).status).toBe(404)
    expect((await api.patch(`/v1/brands/${gone.id}`, { enabled: false })).status).toBe(404)
    await create({ name: "Gone" })

    const from = await create({ name: "From" })
    const to = await create({ name: "To" })
    const theirs = (await other.post("/v1/brands", { name: "Theirs" })).body.brand
    for (const moveTo of ["01ARZ3NDEKTSV4RRFFQ69G5FAV", from.id, gone.id, theirs.id]) {
      const refused = await api.post(`/v1/brands/${from.id}/delete`, { moveTo })
      expect(refused.status, moveTo).toBe(404)
      expect(refused.body.error.code).toBe("not_found")
    }
    const moved = await api.post(`/v1/brands/${from.id}/delete`, { moveTo: to.id })
    expect(moved.status).toBe(200)
    expect(moved.body).toEqual({ deleted: true, moved: 0 })
    expect((await api.get(`/v1/brands/${to.id}`)).status).toBe(200)
  })

  it("answers another workspace's brand exactly like a missing one", async () => {
    const mine = await create({ name: "Mine" })
    const missing = await other.get("/v1/brands/01ARZ3NDEKTSV4RRFFQ69G5FAV")
    const r = await other.get(`/v1/brands/${mine.id}`)
    expect(r.status).toBe(404)
    expect(r.body.error.code).toBe(missing.body.error.code)
    expect((await other.patch(`/v1/brands/${mine.id}`, { name: "Stolen" })).status).toBe(404)
    expect((await other.post(`/v1/brands/${mine.id}/delete`)).status).toBe(404)
    expect((await other.get("/v1/brands")).body.brands.map((b: { id: string }) => b.id)).not.toContain(mine.id)
    expect((await other.post("/v1/brands", { name: "Mine" })).status).toBe(201)
    expect((await api.get(`/v1/brands/${mine.id}`)).body.brand.name).toBe("Mine")
  })
})

describe("palette", () => {
  it("names /palette/brand when the brand colour is missing or unreadable", async () => {
    for (const body of [{}, { stage: "light" }, { brand: "blue" }, { brand: 12 }, undefined]) {
      const r = await api.post("/v1/brands/palette", body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.error.code).toBe("schema_validation")
      expect(pathsOf(r)).toEqual(["/palette/brand"])
    }
    const stage = await api.post("/v1/brands/palette", { brand: "#123456", stage: "dim" })
    expect(pathsOf(stage)).toContain("/stage")
    const positive = await api.post("/v1/brands/palette", { brand: "#123456", positive: "#00ff00" })
    expect(positive.status).toBe(400)
    expect(pathsOf(positive)).toContain("/positive")
  })

  it("answers every palette key and real contrast checks, storing nothing", async () => {
    const before = (await api.get("/v1/brands")).body.brands.length
    for (const stage of ["dark", "light"]) {
      const r = await api.post("/v1/brands/palette", { brand: "#1F6FEB", stage })
      expect(r.status, r.text).toBe(200)
      const { checks, palette } = r.body
      for (const key of PALETTE_COLOR_KEYS) expect(palette[key], key).toMatch(HEX)
      expect(palette.brand).toBe("#1f6feb")
      expect(palette.series.length).toBeGreaterThanOrEqual(6)
      expect(new Set(palette.series).size).toBe(palette.series.length)
      const labels = ["text on surface", "muted text on surface", "text on brand", "positive on surface"]
      expect(checks.map((c: { label: string }) => c.label)).toEqual([...labels, "negative on surface"])
      for (const c of checks) {
        expect(c.ok, c.label).toBe(true)
        expect(c.ratio).toBeGreaterThanOrEqual(c.target)
        expect(Math.round(c.ratio * 100) / 100).toBe(c.ratio)
      }
    }
    const custom = await api.post("/v1/brands/palette", {
      brand: "#e11d48",
      direction: "custom",
      positive: "#00AAFF",
      negative: "#FF8800",
      overrides: { surface: "#000000" }
    })
    expect(custom.body.palette).toMatchObject({ positive: "#00aaff", negative: "#ff8800", surface: "#000000" })
    expect((await api.get("/v1/brands")).body.brands.length).toBe(before)
  })
})
