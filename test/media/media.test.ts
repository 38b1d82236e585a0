import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { admin, client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { jpeg, jpegWithBigHeader, mp4, png, svg, ttf, wav } from "../support/MediaFiles.js"
import { useNode } from "../support/Rig.js"
import { expectError, ULID } from "../support/Routes.js"
import { peakRssDuring, rssOf, streamUpload, upload } from "../support/Uploads.js"

const MB = 1024 * 1024

let key: string
let keyId: string
let api: ReturnType<typeof client>
let other: { apiKey: string; api: ReturnType<typeof client> }

const put = (bytes: Uint8Array, name: string, fields: Record<string, string> = {}, as = key) =>
  upload(`${node.url}/v1/media`, as, { bytes, name }, fields)

const uploaded = async (bytes: Uint8Array, name: string, fields: Record<string, string> = {}) => {
  const r = await put(bytes, name, fields)
  expect(r.status, r.text).toBe(201)
  return r.body.file as { id: string; name: string; mimeType: string; kind: string; url: string; ref: string }
}

const { db, node } = useNode({ label: "media" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, ["media:read", "media:write", "brands:read", "brands:write"], "Media")
  key = ws.apiKey
  keyId = ws.keyId
  api = ws.api
  other = await workspaceWithKey(node, ["media:read", "media:write"], "Other")
}, 120_000)

describe("upload", () => {
  it("stores a PNG and answers the file and the storage block", async () => {
    const bytes = png(64, 32)
    const r = await put(bytes, "logo.png")
    expect(r.status, r.text).toBe(201)
    const { file, storage } = r.body
    expect(file).toMatchObject({
      name: "logo.png",
      mimeType: "image/png",
      kind: "Image",
      byteSize: bytes.length,
      width: 64,
      height: 32,
      uploadedBy: `apikey:${keyId}`,
      ref: `media://${file.id}`
    })
    expect(file.id).toMatch(ULID)
    expect(new Date(file.createdAt).toISOString()).toBe(file.createdAt)
    expect(file.url).toMatch(new RegExp(`/v1/media/${file.id}/preview\\?exp=\\d+&sig=`))
    expect(storage.maxMb).toBeGreaterThan(0)
    expect(storage.usedBytes).toBeGreaterThanOrEqual(bytes.length)
    expect(storage.usedBy.media).toBeGreaterThanOrEqual(bytes.length)
    const [row] = await query<{ byte_size: string; sha256: string }>(
      db.url,
      "SELECT byte_size::text, sha256 FROM media_files WHERE id = $1",
      [file.id]
    )
    expect(Number(row!.byte_size)).toBe(bytes.length)
    expect(row!.sha256).toMatch(/^[0-9a-f]{64}$/)
  })

  it("decides the type from the bytes: a PNG named .jpg is image/png", async () => {
    const file = await uploaded(png(8, 8), "photo.jpg")
    expect(file).toMatchObject({ name: "photo.jpg", mimeType: "image/png" })
  })

  it("refuses a picture over 2048×2048 and one whose header is cut", async () => {
    const wide = expectError(await put(png(2049, 10), "wide.png"), 400, "schema_validation")
    expect(wide.message).toContain("2049×10")
    expect(wide.details[0]).toMatchObject({ path: "/file", rule: "maxPixels" })
    const cut = expectError(await put(png(40, 40).subarray(0, 20), "cut.png"), 400, "schema_validation")
    expect(cut.details[0]).toMatchObject({ path: "/file", rule: "dimensions" })
    const jpegCut = expectError(await put(jpeg(40, 40).subarray(0, 60), "cut.jpg"), 400, "schema_validation")
    expect(jpegCut.details[0].rule).toBe("dimensions")
  })

  it("reads a JPEG's size past the head it keeps in memory", async () => {
    const file = await uploaded(jpegWithBigHeader(300, 200, 2), "exif.jpg")
    expect(file).toMatchObject({ mimeType: "image/jpeg" })
    expect(await api.get("/v1/media").then((r) => r.body.files[0])).toMatchObject({ width: 300, height: 200 })
  })

  it("takes an SVG whatever size it claims, and a font by its extension", async () => {
    expect(await uploaded(svg("<?xml version=\"1.0\"?>\n"), "mark.svg")).toMatchObject({
      mimeType: "image/svg+xml",
      kind: "Image"
    })
    expect(await uploaded(ttf(), "Noto Sans.ttf")).toMatchObject({ mimeType: "font/ttf", kind: "Font" })
    expect(await uploaded(wav(), "beep.wav")).toMatchObject({ mimeType: "audio/wav", kind: "Audio" })
  })

  it("refuses a file of no known type, and a name without a file", async () => {
    const r = expectError(await put(new TextEncoder().encode("just text"), "notes.png"), 400, "schema_validation")
    expect(r.details[0]).toMatchObject({ path: "/file", rule: "fileType" })
    const form = new FormData()
    form.append("replace", "true")
    const none = await fetch(`${node.url}/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form
    })
    expect(none.status).toBe(400)
  })

  it("refuses JSON (and any body that is not multipart) with 415", async () => {
    expectError(await api.post("/v1/media", { file: "aGVsbG8=" }), 415, "unsupported_media_type")
    const raw = await fetch(`${node.url}/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "image/png" },
      body: png(4, 4)
    })
    expect(raw.status).toBe(415)
  })

  it("holds each kind to its limit: a 6 MB video is 413", async () => {
    const r = expectError(await put(mp4(6 * MB), "clip.mp4"), 413, "payload_too_large")
    expect(r.message).toContain("5 MB")
    expect(await query(db.url, "SELECT 1 FROM media_files WHERE name = 'clip.mp4'")).toHaveLength(0)
  })

  it("refuses a 60 MB upload without the node's memory growing", async () => {
    const pid = node.process.pid!
    const big = new Uint8Array(60 * MB)
    big.set(png(10, 10))
    // Warm up: a 9 MB upload that is kept grows the heap to its working size, so what follows measures buffering.
    const warm = await streamUpload(`${node.url}/v1/media`, key, png(10, 10), 9 * MB, "warm.png")
    expect(warm.status, warm.text).toBe(201)
    await api.post(`/v1/media/${JSON.parse(warm.text).file.id}/delete`)
    const before = rssOf(pid)
    const announced = await peakRssDuring(pid, () => put(big, "huge.png"))
    expectError(announced.result, 413, "payload_too_large")
    // Sent chunked, the size is only learnt by reading: the read stops at the image limit.
    const streamed = await peakRssDuring(pid, () => streamUpload(`${node.url}/v1/media`, key, png(10, 10), 60 * MB))
    expect(streamed.result.status, streamed.result.text).toBe(413)
    expect(JSON.parse(streamed.result.text).error.message).toContain("10 MB")
    const growth = Math.max(announced.peak, streamed.peak) - before
    // A buffered body would add its 60 MB; what remains is the young generation filling its semi-space (docs/operating.md "Memory").
    expect(growth, `RSS grew by ${(growth / MB).toFixed(1)} MB`).toBeLessThan(40 * MB)
    const files = await api.get("/v1/media")
    expect(files.body.files.map((f: { name: string }) => f.name)).not.toContain("big.png")
    expect(fs.readdirSync(path.join(node.dataDir, "blobs", ".tmp"))).toEqual([])
  })

  it("refuses an upload that does not fit the media share of storage", async () => {
    const small = await workspaceWithKey(node, ["media:read", "media:write"], "Small")
    await admin(node).put(`/admin/workspaces/${small.accountId}/limits`, { storageMb: 1 })
    const r = await upload(`${node.url}/v1/media`, small.apiKey, { bytes: wav(600 * 1024), name: "long.wav" })
    const error = expectError(r, 413, "payload_too_large")
    expect(error.message).toContain("share")
    const fits = await upload(`${node.url}/v1/media`, small.apiKey, { bytes: wav(100 * 1024), name: "short.wav" })
    expect(fits.status, fits.text).toBe(201)
    expect(fits.body.storage).toMatchObject({ usedBytes: 100 * 1024, maxMb: 1 })
  })
})

describe("names", () => {
  it("refuses a name in use (any case) with 409 unless replace is sent", async () => {
    const first = await uploaded(png(10, 10), "Banner.png")
    expectError(await put(png(12, 12), "banner.PNG"), 409, "conflict")
    const second = await uploaded(png(12, 12), "banner.png", { replace: "true" })
    expect(second.id).not.toBe(first.id)
    const names = (await api.get("/v1/media")).body.files.filter((f: { name: string }) => /banner/i.test(f.name))
    expect(names.map((f: { id: string }) => f.id)).toEqual([second.id])
  })

  it("replaces: same kind only, the old name with the new extension, a new id", async () => {
    const old = await uploaded(png(10, 10), "mark.png")
    const wrongKind = expectError(await put(ttf(), "mark.ttf", { replaces: old.id }), 409, "conflict")
    expect(wrongKind.details[0].path).toBe("/replaces")
    const next = await uploaded(jpeg(20, 20), "anything.jpeg", { replaces: old.id })
    expect(next).toMatchObject({ name: "mark.jpeg", mimeType: "image/jpeg" })
    expect(next.id).not.toBe(old.id)
    expectError(await api.get(`/v1/media/${old.id}/uses`), 404, "not_found")
    expect((await fetch(old.url)).status).toBe(404)
    expectError(await put(png(5, 5), "x.png", { replaces: "01HZZZZZZZZZZZZZZZZZZZZZZZ" }), 404, "not_found")
    // The text parts may follow the file.
    const file = { bytes: png(4, 4), name: "z.png" }
    const after = await upload(`${node.url}/v1/media`, key, file, { replaces: next.id }, "fileFirst")
    expect(after.status, after.text).toBe(201)
    expect(after.body.file.name).toBe("mark.png")
  })

  it("renames (1 to 200 characters; a name in use is 409)", async () => {
    const a = await uploaded(png(10, 10), "a-name.png")
    await uploaded(png(10, 10), "b-name.png")
    const r = await api.post(`/v1/media/${a.id}/rename`, { name: "renamed.png" })
    expect(r.status, r.text).toBe(200)
    expect(r.body.file).toMatchObject({ id: a.id, name: "renamed.png" })
    expectError(await api.post(`/v1/media/${a.id}/rename`, { name: "B-NAME.png" }), 409, "conflict")
    expectError(await api.post(`/v1/media/${a.id}/rename`, { name: "" }), 400, "schema_validation")
    expectError(await api.post(`/v1/media/${a.id}/rename`, { name: "x".repeat(201) }), 400, "schema_validation")
  })
})

describe("list, uses, delete and previews", () => {
  it("lists newest first with the storage block", async () => {
    const one = await uploaded(png(3, 3), "order-1.png")
    const two = await uploaded(png(3, 3), "order-2.png")
    const r = await api.get("/v1/media")
    expect(r.status).toBe(200)
    const ids = r.body.files.map((f: { id: string }) => f.id)
    expect(ids.indexOf(two.id)).toBeLessThan(ids.indexOf(one.id))
    expect(r.body.storage).toMatchObject({ maxMb: expect.any(Number), usedBytes: expect.any(Number) })
  })

  it("serves the signed preview and refuses a tampered or missing signature", async () => {
    const bytes = png(16, 16)
    const file = await uploaded(bytes, "preview.png")
    const ok = await fetch(file.url)
    expect(ok.status).toBe(200)
    expect(ok.headers.get("content-type")).toBe("image/png")
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(bytes)
    const url = new URL(file.url)
    const sig = url.searchParams.get("sig")!
    url.searchParams.set("sig", (sig[0] === "A" ? "B" : "A") + sig.slice(1))
    expect((await fetch(url)).status).toBe(403)
    const expired = new URL(file.url)
    expired.searchParams.set("exp", String(Math.floor(Date.now() / 1000) - 10))
    expect((await fetch(expired)).status).toBe(403)
    expect((await fetch(`${node.url}/v1/media/${file.id}/preview`)).status).toBe(403)
    const otherFile = new URL(file.url.replace(file.id, "01HZZZZZZZZZZZZZZZZZZZZZZZ"))
    expect((await fetch(otherFile)).status).toBe(403)
  })

  it("deletes the file and its bytes", async () => {
    const file = await uploaded(png(9, 9), "doomed.png")
    const [row] = await query<{ blob_key: string }>(db.url, "SELECT blob_key FROM media_files WHERE id = $1", [file.id])
    const r = await api.post(`/v1/media/${file.id}/delete`)
    expect(r.status, r.text).toBe(200)
    expect(r.body).toMatchObject({ deleted: true })
    expect((await fetch(file.url)).status).toBe(404)
    expectError(await api.post(`/v1/media/${file.id}/delete`), 404, "not_found")
    expect(fs.existsSync(`${node.dataDir}/blobs/${row!.blob_key}`)).toBe(false)
    const again = await uploaded(png(9, 9), "doomed.png")
    expect(again.id).not.toBe(file.id)
  })

  it("answers another workspace's file like a missing one", async () => {
    const file = await uploaded(png(7, 7), "mine.png")
    const theirs = other.api
    expectError(await theirs.get(`/v1/media/${file.id}/uses`), 404, "not_found")
    expectError(await theirs.post(`/v1/media/${file.id}/rename`, { name: "stolen.png" }), 404, "not_found")
    expectError(await theirs.post(`/v1/media/${file.id}/delete`), 404, "not_found")
    const replaced = await put(png(7, 7), "x.png", { replaces: file.id }, other.apiKey)
    expectError(replaced, 404, "not_found")
    expect((await theirs.get("/v1/media")).body.files.map((f: { id: string }) => f.id)).not.toContain(file.id)
  })
})

describe("brand slots follow the file", () => {
  it("shows uses, repoints a slot on replaces and empties it on delete", async () => {
    const brand = (await api.post("/v1/brands", { name: "Acme" })).body.brand
    const logo = await uploaded(png(50, 50), "acme-logo.png")
    const linked = await api.post(`/v1/brands/${brand.id}/assets/logo/link`, { url: logo.ref })
    expect(linked.status, linked.text).toBe(200)
    const uses = await api.get(`/v1/media/${logo.id}/uses`)
    expect(uses.body.uses).toEqual([{ kind: "brandSlot", brandId: brand.id, brandName: "Acme", slot: "logo" }])
    const next = await uploaded(svg(), "new-logo.svg", { replaces: logo.id })
    expect(next.name).toBe("acme-logo.svg")
    const style = (await api.get(`/v1/brands/${brand.id}`)).body.brand.style
    expect(style.logo).toMatchObject({ assetId: next.id, fileName: "acme-logo.svg", mimeType: "image/svg+xml" })
    expect((await api.get(`/v1/media/${next.id}/uses`)).body.uses).toHaveLength(1)
    await api.post(`/v1/media/${next.id}/rename`, { name: "acme.svg" })
    expect((await api.get(`/v1/brands/${brand.id}`)).body.brand.style.logo.fileName).toBe("acme.svg")
    await api.post(`/v1/media/${next.id}/delete`)
    expect((await api.get(`/v1/brands/${brand.id}`)).body.brand.style.logo).toBeNull()
  })
})
