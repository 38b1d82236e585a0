import { createCanvas, loadImage } from "@napi-rs/canvas"
import { beforeAll, describe, expect, it } from "vitest"
import { admin, workspaceWithKey } from "../support/Client.js"
import { compactExample, videoBody } from "../support/Exports.js"
import { wav } from "../support/MediaFiles.js"
import { type Rig, useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"
import { clipOf, waitSettled } from "../support/Storage.js"
import { upload } from "../support/Uploads.js"
import { readZip } from "../support/ZipRead.js"
import { sha256 } from "./helpers.js"
import type { StoreView } from "./StoreViews.js"

/** A magenta 3:1 logo: easy to count in a keyframe. */
const magentaLogo = () => {
  const canvas = createCanvas(300, 100)
  const ctx = canvas.getContext("2d")
  ctx.fillStyle = "#FF00FF"
  ctx.fillRect(0, 0, 300, 100)
  return new Uint8Array(canvas.toBuffer("image/png"))
}

const magentaPixels = async (png: Buffer) => {
  const img = await loadImage(png)
  const canvas = createCanvas(img.width, img.height)
  const ctx = canvas.getContext("2d")
  ctx.drawImage(img, 0, 0)
  const { data } = ctx.getImageData(0, 0, img.width, img.height)
  let n = 0
  for (let i = 0; i < data.length; i += 4) {
    if (data[i]! > 235 && data[i + 1]! < 20 && data[i + 2]! > 235) n++
  }
  return n
}

/**
 * What the service does with stored files, through the public API of one node, with its files kept by the adapter
 * `view` names: kept exports downloaded later (whole and by range), zips of kept exports and of keyframes, a dropped
 * export's file deleted, the oldest kept clip removed for a new one, and uploads counted against the media share,
 * refused past it and freed by delete. The same body runs against the local folder and an S3-compatible bucket, and
 * checks the bytes in the store itself. Answers the file's rig, for checks only one adapter has.
 */
export const storedFilesSuite = (label: string, view: StoreView): Rig => {
  const rig = useNode({ label, env: () => ({ RENDER_SLOTS: "2", ...view.env() }) })
  const { db, node } = rig
  let ws: Awaited<ReturnType<typeof workspaceWithKey>>
  let example: Record<string, unknown>
  /** Two kept exports from one batch: `en` stays until room is needed, `de` is dropped. */
  let en: string
  let de: string

  beforeAll(async () => {
    ws = await workspaceWithKey(node, ["*"], "Stored files")
    example = await compactExample(ws.api)
    const batch = await ws.api.post("/v1/direct-export/batch", {
      ...videoBody(example),
      ratios: ["1x1"],
      locales: ["en", "de"]
    })
    expect(batch.status, batch.text).toBe(202)
    en = batch.body.jobs.find((j: { locale: string }) => j.locale === "en").jobId
    de = batch.body.jobs.find((j: { locale: string }) => j.locale === "de").jobId
    for (const id of [en, de]) await waitSettled(ws.api, id)
  }, 300_000)

  const stored = (key: string) => view.bytes(node, key)
  const clip = (jobId: string) => clipOf(db.url, jobId)
  const storage = async () => (await ws.api.get("/v1/renders/quota")).body.storage
  const fetchBytes = async (path: string, init: { headers?: Record<string, string>; body?: unknown } = {}) => {
    const response = await fetch(`${node.url}${path}`, {
      method: init.body === undefined ? "GET" : "POST",
      headers: {
        authorization: `Bearer ${ws.apiKey}`,
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
    })
    return { response, body: Buffer.from(await response.arrayBuffer()) }
  }
  const download = (jobId: string, headers: Record<string, string> = {}) =>
    fetchBytes(`/v1/direct-export/video/${jobId}/download`, { headers })

  describe(`stored files: ${view.name}`, () => {
    it("a kept export downloads later, whole and by range, as the bytes stored under its recorded sha256", async () => {
      const kept = await clip(en)
      expect(kept).toMatchObject({ kept: true, stored: true })
      const bytes = await stored(kept.blobKey)
      expect(bytes, kept.blobKey).toBeDefined()
      expect(bytes!.length).toBe(kept.byteSize)
      const whole = await download(en)
      expect(whole.response.status).toBe(200)
      expect(whole.body.equals(bytes!)).toBe(true)
      const part = await download(en, { range: "bytes=100-299" })
      expect(part.response.status).toBe(206)
      expect(part.response.headers.get("content-range")).toBe(`bytes 100-299/${kept.byteSize}`)
      expect(part.body.equals(bytes!.subarray(100, 300))).toBe(true)
      const meta = await ws.api.get(`/v1/assets/${kept.id}`)
      expect(meta.status, meta.text).toBe(200)
      expect(meta.body.sha256).toBe(sha256(bytes!))
    })

    it("zips kept exports from the store: one entry per export, each the stored bytes", async () => {
      const r = await fetchBytes("/v1/direct-export/zip", { body: { jobIds: [en, de] } })
      expect(r.response.status, r.body.toString("utf8").slice(0, 300)).toBe(200)
      expect(r.response.headers.get("content-type")).toBe("application/zip")
      expect(Number(r.response.headers.get("content-length"))).toBe(r.body.length)
      const entries = readZip(r.body)
      expect(entries.map((e) => e.name)).toEqual([
        "market-move_compact_1.0.1_no-brand_1x1_en.mp4",
        "market-move_compact_1.0.1_no-brand_1x1_de.mp4"
      ])
      for (const [i, jobId] of [en, de].entries()) {
        const bytes = await stored((await clip(jobId)).blobKey)
        expect(entries[i]!.data.equals(bytes!), jobId).toBe(true)
      }
    })

    it("zips keyframes drawn with the brand's logo, read from the store", async () => {
      const brand = await ws.api.post("/v1/brands", { name: "Magenta" })
      expect(brand.status, brand.text).toBe(201)
      const brandId = brand.body.brand.id as string
      const logo = magentaLogo()
      const up = await upload(`${node.url}/v1/brands/${brandId}/assets/logo`, ws.apiKey, {
        bytes: logo,
        name: "logo.png",
        type: "image/png"
      })
      expect(up.status, up.text).toBe(201)
      const brandFiles = await view.keys(node, `media/${ws.accountId}/brand`)
      expect(brandFiles).toHaveLength(1)
      expect((await stored(brandFiles[0]!))!.equals(Buffer.from(logo))).toBe(true)
      const frames = [{ name: "end", frame: 179 }, { name: "mid", frame: 90 }]
      const r = await fetchBytes("/v1/direct-export/keyframes", { body: videoBody(example, { brandId, frames }) })
      expect(r.response.status, r.body.toString("utf8").slice(0, 300)).toBe(200)
      expect(r.response.headers.get("content-type")).toBe("application/zip")
      const entries = readZip(r.body)
      expect(entries.map((e) => e.name)).toEqual(["end.png", "mid.png"])
      expect(await magentaPixels(entries[0]!.data)).toBeGreaterThan(5000)
    })

    it("a dropped export's file is deleted from the store; it is no longer counted or served", async () => {
      const dropped = await clip(de)
      expect(await stored(dropped.blobKey)).toBeDefined()
      const r = await ws.api.post(`/v1/direct-export/video/${de}/discard`)
      expect(r.status, r.text).toBe(200)
      expect(await stored(dropped.blobKey)).toBeUndefined()
      expect(await clip(de)).toMatchObject({ kept: false, stored: false })
      expectError(await ws.api.get(`/v1/direct-export/video/${de}/download`), 404, "not_found")
      expect((await storage()).usedBy.renders).toBe((await clip(en)).byteSize)
    })

    it("the oldest kept clip is removed from the store when a new one needs its room", async () => {
      const first = await clip(en)
      const limits = await admin(node).put(`/admin/workspaces/${ws.accountId}/limits`, { storageMb: 1 })
      expect(limits.status, limits.text).toBe(200)
      // 30% of 1 MB holds one compact clip but not two.
      const split = await ws.api.post("/v1/storage/split", { mediaSharePercent: 70 })
      expect(split.status, split.text).toBe(200)
      expect(split.body.storage.clips.maxBytes).toBeGreaterThan(first.byteSize)
      expect(split.body.storage.clips.maxBytes).toBeLessThan(2 * first.byteSize)
      expect(await stored(first.blobKey)).toBeDefined()
      const started = await ws.api.post("/v1/direct-export/video", videoBody(example))
      expect(started.status, started.text).toBe(202)
      expect(await waitSettled(ws.api, started.body.jobId)).toMatchObject({ kept: true, keptNote: null })
      const second = await clip(started.body.jobId)
      expect(second).toMatchObject({ kept: true, stored: true })
      expect(await clip(en)).toMatchObject({ kept: false, stored: false })
      expect(await stored(first.blobKey)).toBeUndefined()
      expect((await stored(second.blobKey))?.length).toBe(second.byteSize)
      expect((await storage()).usedBy.renders).toBe(second.byteSize)
      expectError(await ws.api.get(`/v1/direct-export/video/${en}/download`), 404, "not_found")
      expect((await download(started.body.jobId)).response.status).toBe(200)
    })

    it("uploads count against the media share, are refused past it leaving nothing, and delete frees them", async () => {
      const small = await workspaceWithKey(node, ["media:read", "media:write"], "Quota")
      const limits = await admin(node).put(`/admin/workspaces/${small.accountId}/limits`, { storageMb: 1 })
      expect(limits.status, limits.text).toBe(200)
      const folder = `media/${small.accountId}`
      const put = (bytes: Uint8Array, name: string) => upload(`${node.url}/v1/media`, small.apiKey, { bytes, name })
      // Half of 1 MB for media: one 300 KB file fits, a second does not.
      const one = wav(300 * 1024)
      const first = await put(one, "one.wav")
      expect(first.status, first.text).toBe(201)
      expect(first.body.storage).toMatchObject({ usedBytes: one.length, usedBy: { media: one.length }, maxMb: 1 })
      const keys = await view.keys(node, folder)
      expect(keys).toHaveLength(1)
      expect((await stored(keys[0]!))!.equals(Buffer.from(one))).toBe(true)

      const refused = expectError(await put(wav(300 * 1024), "two.wav"), 413, "payload_too_large")
      expect(refused.message).toContain("share")
      expect(await view.keys(node, folder)).toEqual(keys)
      expect((await small.api.get("/v1/media")).body.storage).toMatchObject({ usedBy: { media: one.length } })

      const deleted = await small.api.post(`/v1/media/${first.body.file.id}/delete`)
      expect(deleted.status, deleted.text).toBe(200)
      expect(await view.keys(node, folder)).toEqual([])
      expect((await small.api.get("/v1/media")).body.storage).toMatchObject({ usedBytes: 0, usedBy: { media: 0 } })
      const again = await put(wav(300 * 1024), "two.wav")
      expect(again.status, again.text).toBe(201)
      expect(await view.keys(node, folder)).toHaveLength(1)
    })
  })
  return rig
}
