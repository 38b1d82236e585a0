import { beforeAll, describe, expect, it } from "vitest"
import { client, workspaceWithKey } from "../support/Client.js"
import { mp3, mp4, png, svg, ttf, wav } from "../support/MediaFiles.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"
import { upload } from "../support/Uploads.js"

const MB = 1024 * 1024

let key: string
let api: ReturnType<typeof client>
let brandId: string

const slotUrl = (slot: string, locale?: string, brand = brandId) =>
  `${node.url}/v1/brands/${brand}/assets/${slot}${locale === undefined ? "" : `?locale=${locale}`}`

const intoSlot = async (slot: string, bytes: Uint8Array, name: string, locale?: string) => {
  const r = await upload(slotUrl(slot, locale), key, { bytes, name })
  expect(r.status, r.text).toBe(201)
  return r.body as { brand: { style: any }; file: { id: string; ref: string; name: string } }
}

const libraryIds = async () => (await api.get("/v1/media")).body.files.map((f: { id: string }) => f.id) as Array<string>

const style = async () => (await api.get(`/v1/brands/${brandId}`)).body.brand.style

const { node } = useNode({ label: "brand_slots" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, ["media:read", "media:write", "brands:read", "brands:write"], "Slots")
  key = ws.apiKey
  api = ws.api
  const created = await api.post("/v1/brands", { name: "Slotted" })
  expect(created.status, created.text).toBe(201)
  brandId = created.body.brand.id
}, 120_000)

describe("upload into a slot", () => {
  it("stores the file in the library and writes the reference into the style", async () => {
    const { brand, file } = await intoSlot("logo", png(120, 40), "logo.png")
    expect(brand.style.logo).toEqual({ assetId: file.id, fileName: "logo.png", mimeType: "image/png", url: file.ref })
    expect((await style()).logo.assetId).toBe(file.id)
    expect(await libraryIds()).toContain(file.id)
    const uses = await api.get(`/v1/media/${file.id}/uses`)
    expect(uses.body.uses).toEqual([{ kind: "brandSlot", brandId, brandName: "Slotted", slot: "logo" }])
  })

  it("deletes the previous file of the slot when it was uploaded into it", async () => {
    const first = await intoSlot("logo", png(10, 10), "first.png")
    const second = await intoSlot("logo", svg(), "second.svg")
    expect(second.brand.style.logo.assetId).toBe(second.file.id)
    const ids = await libraryIds()
    expect(ids).toContain(second.file.id)
    expect(ids).not.toContain(first.file.id)
  })

  it("takes a free name instead of clashing with the library", async () => {
    await upload(`${node.url}/v1/media`, key, { bytes: png(5, 5), name: "mark.png" })
    const { file } = await intoSlot("badge", png(5, 5), "mark.png")
    expect(file.name).toBe("mark (2).png")
  })

  it("holds each slot to its types and size", async () => {
    const video = expectError(
      await upload(slotUrl("logo"), key, { bytes: mp4(), name: "x.mp4" }),
      400,
      "schema_validation"
    )
    expect(video.message).toContain("logo slot takes PNG, JPEG, WebP, SVG")
    expectError(await upload(slotUrl("sound"), key, { bytes: png(5, 5), name: "x.png" }), 400, "schema_validation")
    expectError(await upload(slotUrl("font-primary"), key, { bytes: wav(), name: "x.wav" }), 400, "schema_validation")
    const big = new Uint8Array(6 * MB)
    big.set(png(10, 10))
    const tooBig = expectError(
      await upload(slotUrl("logo"), key, { bytes: big, name: "big.png" }),
      413,
      "payload_too_large"
    )
    expect(tooBig.message).toContain("5 MB")
    expectError(await api.post(`/v1/brands/${brandId}/assets/logo`, { url: "x" }), 415, "unsupported_media_type")
  })

  it("answers an unknown slot, another workspace's brand and a bad locale", async () => {
    expectError(await upload(slotUrl("banner"), key, { bytes: png(5, 5), name: "x.png" }), 404, "not_found")
    expectError(await upload(slotUrl("intro-7x3"), key, { bytes: mp4(), name: "x.mp4" }), 404, "not_found")
    expectError(await upload(slotUrl("logo", "de"), key, { bytes: png(5, 5), name: "x.png" }), 400, "schema_validation")
    expectError(
      await upload(slotUrl("background", "xx-YY"), key, { bytes: png(5, 5), name: "x.png" }),
      400,
      "locale_not_supported"
    )
    const other = await workspaceWithKey(node, ["brands:write", "media:write"], "Elsewhere")
    const r = await upload(slotUrl("logo"), other.apiKey, { bytes: png(5, 5), name: "x.png" })
    expectError(r, 404, "not_found")
    expectError(await other.api.post(`/v1/brands/${brandId}/assets/logo/delete`), 404, "not_found")
  })

  it("keeps per-locale files for background, badge and clips; sound and fonts are single", async () => {
    const de = await intoSlot("background", png(30, 30), "bg-de.png", "de")
    const all = await intoSlot("background", mp4(), "bg.mp4")
    const intro = await intoSlot("intro-9x16", mp4(), "intro.mp4")
    const introFr = await intoSlot("intro-9x16", mp4(), "intro-fr.mp4", "fr")
    const sound = await intoSlot("sound", mp3(), "jingle.mp3")
    const font = await intoSlot("font-primary", ttf(), "Noto.ttf")
    const s = await style()
    expect(s.background.asset.de.assetId).toBe(de.file.id)
    expect(s.background.asset.default).toMatchObject({ assetId: all.file.id, mimeType: "video/mp4" })
    expect(s.intro.clips["9x16"]).toMatchObject({
      default: { assetId: intro.file.id },
      fr: { assetId: introFr.file.id }
    })
    expect(s.sound.asset).toMatchObject({ assetId: sound.file.id, mimeType: "audio/mpeg" })
    expect(s.fonts.primary).toMatchObject({ assetId: font.file.id, mimeType: "font/ttf" })
    const uses = (await api.get(`/v1/media/${introFr.file.id}/uses`)).body.uses
    expect(uses).toEqual([{ kind: "brandSlot", brandId, brandName: "Slotted", slot: "intro-9x16", locale: "fr" }])
  })
})

describe("link and delete", () => {
  it("links a library file whose kind fits, and keeps it when the slot moves on", async () => {
    const lib = await upload(`${node.url}/v1/media`, key, { bytes: png(60, 60), name: "library-badge.png" })
    const file = lib.body.file
    const linked = await api.post(`/v1/brands/${brandId}/assets/badge/link?locale=fr`, { url: file.ref })
    expect(linked.status, linked.text).toBe(200)
    expect(linked.body.brand.style.badge.asset.fr.assetId).toBe(file.id)
    const byName = await api.post(`/v1/brands/${brandId}/assets/badge/link?locale=es`, {
      url: "media://library-badge.png"
    })
    expect(byName.body.brand.style.badge.asset.es.assetId).toBe(file.id)
    await intoSlot("badge", png(8, 8), "fr-badge.png", "fr")
    expect(await libraryIds()).toContain(file.id)
    const cleared = await api.post(`/v1/brands/${brandId}/assets/badge/delete?locale=es`)
    expect(cleared.status, cleared.text).toBe(200)
    expect(cleared.body.brand.style.badge.asset.es).toBeUndefined()
    expect(await libraryIds()).toContain(file.id)
  })

  it("refuses a file of the wrong kind or size for the slot, and a missing one", async () => {
    const font = (await upload(`${node.url}/v1/media`, key, { bytes: ttf(), name: "linked.ttf" })).body.file
    const link = (url: string) => api.post(`/v1/brands/${brandId}/assets/logo/link`, { url })
    const wrong = expectError(await link(font.ref), 400, "schema_validation")
    expect(wrong.details[0].path).toBe("/url")
    expectError(await link("https://x.test/a.png"), 400, "schema_validation")
    expectError(await link("media://nothing-here"), 404, "not_found")
    const ok = await api.post(`/v1/brands/${brandId}/assets/font-frame/link`, { url: font.ref })
    expect(ok.body.brand.style.fonts.frame.assetId).toBe(font.id)
  })

  it("empties a slot and deletes a file uploaded into it that nothing else holds", async () => {
    const { file } = await intoSlot("outro-1x1", mp4(), "outro.mp4")
    const linkedElsewhere = await intoSlot("outro-16x9", mp4(), "shared.mp4")
    await api.post(`/v1/brands/${brandId}/assets/outro-1x1/link`, { url: linkedElsewhere.file.ref })
    expect(await libraryIds()).not.toContain(file.id)
    const r = await api.post(`/v1/brands/${brandId}/assets/outro-16x9/delete`)
    expect(r.status, r.text).toBe(200)
    expect(r.body.brand.style.outro.clips["16x9"]).toBeUndefined()
    // Still held by outro-1x1, so it stays.
    expect(await libraryIds()).toContain(linkedElsewhere.file.id)
    await api.post(`/v1/brands/${brandId}/assets/outro-1x1/delete`)
    expect(await libraryIds()).not.toContain(linkedElsewhere.file.id)
    expect((await style()).outro.clips).toEqual({})
  })
})
