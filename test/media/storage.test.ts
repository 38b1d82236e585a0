import * as crypto from "node:crypto"
import * as fs from "node:fs"
import { beforeAll, describe, expect, it } from "vitest"
import { admin, client, workspaceWithKey } from "../support/Client.js"
import { compactExample, MARKET, videoBody } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"
import {
  blobExists as blobExistsIn,
  blobPath,
  clipOf,
  expectedBlock,
  insertMediaRow,
  MB,
  urlSigning,
  waitSettled
} from "../support/Storage.js"

type Api = ReturnType<typeof client>

let api: Api
let other: Api
let accountId: string
let example: Record<string, unknown>
/** Two kept exports from one batch: `en` stays until room is needed, `de` is deleted through the media library. */
let en: string
let de: string

const { db, node } = useNode({ label: "storage", env: { RENDER_SLOTS: "2" } })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, ["*"], "Storage")
  api = ws.api
  accountId = ws.accountId
  other = (await workspaceWithKey(node, ["*"], "Other")).api
  example = await compactExample(api)
  const body = { ...videoBody(example), ratios: ["1x1"], locales: ["en", "de"] }
  const batch = await api.post("/v1/direct-export/batch", body)
  expect(batch.status, batch.text).toBe(202)
  en = batch.body.jobs.find((j: { locale: string }) => j.locale === "en").jobId
  de = batch.body.jobs.find((j: { locale: string }) => j.locale === "de").jobId
  for (const id of [en, de]) await settled(id)
}, 240_000)

const clipState = (jobId: string) => clipOf(db.url, jobId)
const settled = (jobId: string) => waitSettled(api, jobId)
const blobExists = (key: string) => blobExistsIn(node.dataDir, key)
const storage = async () => (await api.get("/v1/renders/quota")).body.storage
const fetchBytes = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { headers })
  return { response, body: Buffer.from(await response.arrayBuffer()) }
}
const listed = async () => (await api.get("/v1/media/renders")).body.clips.map((c: { id: string }) => c.id)

describe("storage block", () => {
  it("counts kept clips against the clips share; the shares add up to the whole", async () => {
    const clips = [await clipState(en), await clipState(de)]
    expect(clips.every((c) => c.kept && c.stored)).toBe(true)
    const used = clips[0]!.byteSize + clips[1]!.byteSize
    expect(await storage()).toEqual(expectedBlock(1024, 50, 0, used))
  })

  it("split: moves the shares within the range; out of range or not whole is 400 at /mediaSharePercent", async () => {
    for (const body of [{ mediaSharePercent: 5 }, { mediaSharePercent: 95 }, { mediaSharePercent: 50.5 }, {}]) {
      const r = await api.post("/v1/storage/split", body)
      const error = expectError(r, 400, "schema_validation")
      expect(error.details.map((d: { path: string }) => d.path), JSON.stringify(body)).toContain("/mediaSharePercent")
    }
    const moved = await api.post("/v1/storage/split", { mediaSharePercent: 60 })
    expect(moved.status, moved.text).toBe(200)
    const clipsMax = Math.floor(1024 * MB * 0.4)
    expect(moved.body.storage).toMatchObject({
      mediaPercent: 60,
      media: { maxBytes: 1024 * MB - clipsMax },
      clips: { maxBytes: clipsMax }
    })
    expect(await storage()).toEqual(moved.body.storage)
    const readOnly = client(node, (await admin(node).key(accountId, ["media:read"])).apiKey)
    expectError(await readOnly.post("/v1/storage/split", { mediaSharePercent: 50 }), 403, "forbidden")
  })
})

describe("rendered clips and assets", () => {
  it("lists kept clips newest first with signed urls; nothing relies on export clips", async () => {
    const r = await api.get("/v1/media/renders")
    expect(r.status, r.text).toBe(200)
    const ids = [(await clipState(en)).id, (await clipState(de)).id]
    expect(r.body.clips.map((c: { id: string }) => c.id).sort()).toEqual([...ids].sort())
    for (const clip of r.body.clips) {
      expect(clip).toMatchObject({
        kind: "video",
        mimeType: "video/mp4",
        ratio: "1x1",
        width: 1080,
        height: 1080,
        durationMs: 6000,
        templateId: MARKET,
        channelName: null,
        needed: false,
        neededBecause: null
      })
      expect(clip.url).toMatch(new RegExp(`/v1/assets/${clip.id}/download\\?exp=\\d+&sig=`))
      expect(Date.parse(clip.createdAt)).not.toBeNaN()
    }
  })

  it("asset metadata: rendered clips only; a media id or another workspace's clip is 404", async () => {
    const clip = await clipState(en)
    const r = await api.get(`/v1/assets/${clip.id}`)
    expect(r.status, r.text).toBe(200)
    const bytes = fs.readFileSync(blobPath(node.dataDir, clip.blobKey))
    expect(r.body).toMatchObject({
      assetId: clip.id,
      kind: "video",
      ratio: "1x1",
      locale: "en",
      mimeType: "video/mp4",
      width: 1080,
      height: 1080,
      durationMs: 6000,
      byteSize: clip.byteSize,
      sha256: crypto.createHash("sha256").update(bytes).digest("hex")
    })
    const ttl = Date.parse(r.body.expiresAt) - Date.now()
    expect(ttl).toBeGreaterThan(55 * 60_000)
    expect(ttl).toBeLessThanOrEqual(3600_000)
    expect(new URL(r.body.url).searchParams.get("exp")).toBe(String(Date.parse(r.body.expiresAt) / 1000))
    await insertMediaRow(db.url, accountId, "01JMEDIA00000000000000000A", 10)
    expectError(await api.get("/v1/assets/01JMEDIA00000000000000000A"), 404, "not_found")
    expectError(await other.get(`/v1/assets/${clip.id}`), 404, "not_found")
    expectError(await other.post(`/v1/media/renders/${clip.id}/delete`), 404, "not_found")
    expect((await storage()).usedBy.media).toBe(10)
  })

  it("signed download without a bearer: 200, 206 for a range, 416 unsatisfiable", async () => {
    const meta = (await api.get(`/v1/assets/${(await clipState(en)).id}`)).body
    const whole = await fetchBytes(meta.url)
    expect(whole.response.status).toBe(200)
    expect(whole.response.headers.get("content-type")).toBe("video/mp4")
    expect(whole.body.length).toBe(meta.byteSize)
    expect(crypto.createHash("sha256").update(whole.body).digest("hex")).toBe(meta.sha256)
    const part = await fetchBytes(meta.url, { range: "bytes=100-299" })
    expect(part.response.status).toBe(206)
    expect(part.response.headers.get("content-range")).toBe(`bytes 100-299/${meta.byteSize}`)
    expect(part.body.equals(whole.body.subarray(100, 300))).toBe(true)
    const beyond = await fetchBytes(meta.url, { range: `bytes=${meta.byteSize}-` })
    expect(beyond.response.status).toBe(416)
    expect(beyond.response.headers.get("content-range")).toBe(`bytes */${meta.byteSize}`)
  })

  it("a tampered, expired, missing or borrowed signature is 403", async () => {
    const enId = (await clipState(en)).id
    const deId = (await clipState(de)).id
    const url = new URL((await api.get(`/v1/assets/${enId}`)).body.url)
    const sig = url.searchParams.get("sig")!
    const exp = Number(url.searchParams.get("exp"))
    const at = (p: string, e: number | string, s: string) => `${node.url}${p}?exp=${e}&sig=${encodeURIComponent(s)}`
    const signing = await urlSigning(db.url)
    const own = `/v1/assets/${enId}/download`
    const past = signing.sign(own, new Date(Date.now() - 60_000))
    const fresh = signing.sign(own, new Date(Date.now() + 600_000))
    const refused = [
      at(own, exp, sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A")),
      at(own, exp + 1, sig),
      at(own, past.exp, past.sig),
      `${node.url}${own}`,
      at(`/v1/assets/${deId}/download`, exp, sig)
    ]
    for (const u of refused) {
      const r = await fetch(u)
      expect(r.status, u).toBe(403)
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe("forbidden")
    }
    expect((await fetch(at(own, fresh.exp, fresh.sig))).status).toBe(200)
  })

  it("delete: the file goes, the record stays marked removed; again 404", async () => {
    const clip = await clipState(de)
    const signed = (await api.get(`/v1/assets/${clip.id}`)).body.url
    const r = await api.post(`/v1/media/renders/${clip.id}/delete`)
    expect(r.status, r.text).toBe(200)
    expect(r.body).toEqual({ deleted: true })
    expect(await clipState(de)).toMatchObject({ kept: false, stored: false })
    expect(blobExists(clip.blobKey)).toBe(false)
    expectError(await api.post(`/v1/media/renders/${clip.id}/delete`), 404, "not_found")
    expectError(await api.get(`/v1/assets/${clip.id}`), 404, "not_found")
    expect((await fetch(signed)).status).toBe(404)
    expect(await listed()).toEqual([(await clipState(en)).id])
    expect((await storage()).usedBy.renders).toBe((await clipState(en)).byteSize)
  })
})

describe("room for rendered clips", () => {
  it("the oldest kept clip is removed when a new one fits the share but not the room left", async () => {
    const first = await clipState(en)
    const limits = await admin(node).put(`/admin/workspaces/${accountId}/limits`, { storageMb: 1 })
    expect(limits.status, limits.text).toBe(200)
    expect(await clipState(en)).toMatchObject({ kept: true, stored: true })
    // 30% of 1 MB holds one compact clip but not two.
    const split = await api.post("/v1/storage/split", { mediaSharePercent: 70 })
    expect(split.status, split.text).toBe(200)
    expect(split.body.storage.clips.maxBytes).toBeGreaterThan(first.byteSize)
    expect(split.body.storage.clips.maxBytes).toBeLessThan(2 * first.byteSize)
    const started = await api.post("/v1/direct-export/video", videoBody(example))
    expect(started.status, started.text).toBe(202)
    expect(await settled(started.body.jobId)).toMatchObject({ kept: true, keptNote: null })
    const second = await clipState(started.body.jobId)
    expect(second).toMatchObject({ kept: true, stored: true })
    expect(await clipState(en)).toMatchObject({ kept: false, stored: false })
    expect(blobExists(first.blobKey)).toBe(false)
    expect(await listed()).toEqual([second.id])
    expect((await storage()).usedBy.renders).toBe(second.byteSize)
    expectError(await api.get(`/v1/direct-export/video/${en}/download`), 404, "not_found")
    const jobs = (await api.get("/v1/render-jobs")).body.jobs
    expect(jobs.find((j: { id: string }) => j.id === en)).toMatchObject({ outputsSucceeded: 1, clipsStored: 0 })
  })

  it("a smaller clips share removes kept clips; media beyond their new share is 409 naming the bytes", async () => {
    const split = await api.post("/v1/storage/split", { mediaSharePercent: 90 })
    expect(split.status, split.text).toBe(200)
    expect(split.body.storage.usedBy.renders).toBe(0)
    expect(await listed()).toEqual([])
    await insertMediaRow(db.url, accountId, "01JMEDIA00000000000000000B", 600000)
    const refused = expectError(await api.post("/v1/storage/split", { mediaSharePercent: 40 }), 409, "conflict")
    expect(refused.message).toContain("600010 bytes")
    expect(await storage()).toMatchObject({ mediaPercent: 90, usedBy: { media: 600010, renders: 0 } })
  })

  it("a clip larger than the whole clips share is not kept and removes nothing", async () => {
    const started = await api.post("/v1/direct-export/video", videoBody(example))
    expect(started.status, started.text).toBe(202)
    const poll = await settled(started.body.jobId)
    expect(poll.kept).toBe(false)
    expect(poll.keptNote).toMatch(/Larger than the whole rendered-clips share/)
    expect(await clipState(started.body.jobId)).toMatchObject({ kept: false, stored: true })
    expect((await storage()).usedBy.renders).toBe(0)
    expect((await api.get(`/v1/direct-export/video/${started.body.jobId}/download`)).status).toBe(200)
  })
})
