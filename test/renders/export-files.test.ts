import { beforeAll, describe, expect, it } from "vitest"
import { admin, call, client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { compactExample, MARKET, videoBody, waitForExport } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"

type Api = ReturnType<typeof client>

let api: Api
let key: string
let readOnly: Api
let other: Api
let example: Record<string, unknown>
/** Finished and kept: `en` and `de` from one batch, and a second `en` (same name as the first; discarded last). */
let en: string
let de: string
let twin: string

const NAME_EN = "market-move_compact_1.0.1_no-brand_1x1_en.mp4"
const NAME_DE = "market-move_compact_1.0.1_no-brand_1x1_de.mp4"

const { db, node } = useNode({ label: "export_files", env: { RENDER_SLOTS: "2" } })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, ["renders:read", "renders:write", "templates:read"], "Files")
  api = ws.api
  key = ws.apiKey
  readOnly = client(node, (await admin(node).key(ws.accountId, ["renders:read"])).apiKey)
  other = (await workspaceWithKey(node, ["renders:read", "renders:write"], "Other")).api
  example = await compactExample(api)
  const data = { ...example, locales: { de: { clipData: { headline: "Ölpreis steigt" } } } }
  const batch = await api.post("/v1/direct-export/batch", {
    ...videoBody(data),
    ratios: ["1x1"],
    locales: ["en", "de"]
  })
  expect(batch.status, batch.text).toBe(202)
  const single = await api.post("/v1/direct-export/video", videoBody(example, { title: "Second take" }))
  expect(single.status, single.text).toBe(202)
  en = batch.body.jobs.find((j: { locale: string }) => j.locale === "en").jobId
  de = batch.body.jobs.find((j: { locale: string }) => j.locale === "de").jobId
  twin = single.body.jobId
  for (const id of [en, de, twin]) await waitKept(id)
}, 240_000)

/** Finished and settled: the poll can show `succeeded` a moment before the export entity has recorded and kept it. */
const waitKept = async (jobId: string) => {
  expect(await waitForExport(api, jobId, 180_000)).toMatchObject({ status: "succeeded" })
  for (let i = 0; i < 100; i++) {
    const poll = await api.get(`/v1/direct-export/video/${jobId}`)
    if (poll.body.kept === true) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`export ${jobId} was never kept`)
}

/** The raw bytes of an answer; with `bearer` the test workspace's key is sent. */
const bytes = async (path: string, headers: Record<string, string> = {}, bearer?: string, body?: unknown) => {
  const response = await fetch(`${node.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      ...headers,
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { response, body: Buffer.from(await response.arrayBuffer()) }
}

/** No credential at all, as a browser following an export link. */
const anonymous = (path: string) => call(node.url, "GET", path)

const isMp4 = (buffer: Buffer) => buffer.subarray(4, 8).toString("latin1") === "ftyp"

/** Entry names and sizes from a zip's central directory. */
const zipEntries = (zip: Buffer) => {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  expect(eocd).toBeGreaterThan(0)
  const count = zip.readUInt16LE(eocd + 10)
  let at = zip.readUInt32LE(eocd + 16)
  const entries: Array<{ name: string; size: number }> = []
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50)
    const nameLength = zip.readUInt16LE(at + 28)
    const size = zip.readUInt32LE(at + 24)
    entries.push({ name: zip.subarray(at + 46, at + 46 + nameLength).toString("utf8"), size })
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  return entries
}

const setKept = async (jobId: string, kept: boolean) => {
  await query(db.url, "UPDATE exports SET kept = $2, kept_note = $3 WHERE id = $1", [
    jobId,
    kept,
    kept ? null : "test: not kept"
  ])
  await query(db.url, "UPDATE clips SET kept = $2 WHERE id = (SELECT clip_id FROM exports WHERE id = $1)", [
    jobId,
    kept
  ])
}

const linkPath = (url: string) => {
  const u = new URL(url)
  return `${u.pathname}${u.search}`
}

describe("download", () => {
  it("answers the mp4 inline under a descriptive name; ?as=video changes nothing", async () => {
    const r = await bytes(`/v1/direct-export/video/${en}/download`, {}, key)
    expect(r.response.status).toBe(200)
    expect(r.response.headers.get("content-type")).toBe("video/mp4")
    expect(r.response.headers.get("content-disposition")).toBe(`inline; filename="${NAME_EN}"`)
    expect(r.response.headers.get("accept-ranges")).toBe("bytes")
    expect(isMp4(r.body)).toBe(true)
    expect(Number(r.response.headers.get("content-length"))).toBe(r.body.length)
    const as = await bytes(`/v1/direct-export/video/${en}/download?as=video`, {}, key)
    expect(as.response.status).toBe(200)
    expect(as.body.equals(r.body)).toBe(true)
    const queue = await api.get("/v1/direct-export/queue")
    expect(queue.body.exports.find((e: { jobId: string }) => e.jobId === en).byteSize).toBe(r.body.length)
  })

  it("serves byte ranges of a kept video (206) and refuses one past the end (416)", async () => {
    const whole = await bytes(`/v1/direct-export/video/${en}/download`, {}, key)
    const size = whole.body.length
    const part = await bytes(`/v1/direct-export/video/${en}/download`, { range: "bytes=0-99" }, key)
    expect(part.response.status).toBe(206)
    expect(part.response.headers.get("content-range")).toBe(`bytes 0-99/${size}`)
    expect(part.body.equals(whole.body.subarray(0, 100))).toBe(true)
    const tail = await bytes(`/v1/direct-export/video/${en}/download`, { range: "bytes=-10" }, key)
    expect(tail.response.status).toBe(206)
    expect(tail.response.headers.get("content-range")).toBe(`bytes ${size - 10}-${size - 1}/${size}`)
    const past = await bytes(`/v1/direct-export/video/${en}/download`, { range: `bytes=${size}-` }, key)
    expect(past.response.status).toBe(416)
    expect(past.response.headers.get("content-range")).toBe(`bytes */${size}`)
  })

  it("answers an unkept video whole, ranges ignored", async () => {
    await setKept(de, false)
    try {
      const r = await bytes(`/v1/direct-export/video/${de}/download`, { range: "bytes=0-99" }, key)
      expect(r.response.status).toBe(200)
      expect(r.response.headers.get("accept-ranges")).toBe("none")
      expect(r.response.headers.get("content-disposition")).toBe(`inline; filename="${NAME_DE}"`)
      expect(isMp4(r.body)).toBe(true)
    } finally {
      await setKept(de, true)
    }
  })
})

describe("links", () => {
  it("a kept video's link needs no credential, has no expiry and serves ranges", async () => {
    const r = await api.post(`/v1/direct-export/video/${en}/link`)
    expect(r.status, r.text).toBe(200)
    expect(r.body).toMatchObject({ expiresAt: null, form: "video", kept: true })
    expect(r.body.url).toMatch(new RegExp(`/v1/export-files/${en}\\?as=video&key=kept\\.[A-Za-z0-9_-]+$`))
    const got = await bytes(linkPath(r.body.url))
    expect(got.response.status).toBe(200)
    expect(got.response.headers.get("content-type")).toBe("video/mp4")
    expect(isMp4(got.body)).toBe(true)
    const part = await bytes(linkPath(r.body.url), { range: "bytes=4-7" })
    expect(part.response.status).toBe(206)
    expect(part.body.toString("latin1")).toBe("ftyp")
  })

  it("refuses a tampered, missing or borrowed key with 403", async () => {
    const url = new URL((await api.post(`/v1/direct-export/video/${en}/link`)).body.url)
    const linkKey = url.searchParams.get("key")!
    const flipped = linkKey.slice(0, -2) + (linkKey.endsWith("AA") ? "BB" : "AA")
    expectError(await anonymous(`/v1/export-files/${en}?as=video&key=${encodeURIComponent(flipped)}`), 403, "forbidden")
    expectError(await anonymous(`/v1/export-files/${en}?as=video`), 403, "forbidden")
    expectError(await anonymous(`/v1/export-files/${de}?as=video&key=${encodeURIComponent(linkKey)}`), 403, "forbidden")
    expectError(await anonymous(`/v1/export-files/${en}?as=video&key=123.${linkKey.slice(5)}`), 403, "forbidden")
  })

  it("an unkept video's link lasts 15 minutes; a kept-only link stops when it is no longer kept", async () => {
    const keptLink = (await api.post(`/v1/direct-export/video/${de}/link`)).body.url as string
    await setKept(de, false)
    try {
      const before = Date.now()
      const r = await api.post(`/v1/direct-export/video/${de}/link`)
      expect(r.status, r.text).toBe(200)
      expect(r.body).toMatchObject({ form: "video", kept: false })
      const expires = Date.parse(r.body.expiresAt)
      expect(expires).toBeGreaterThan(before + 14 * 60_000)
      expect(expires).toBeLessThanOrEqual(Date.now() + 15 * 60_000)
      const got = await bytes(linkPath(r.body.url))
      expect(got.response.status).toBe(200)
      expect(isMp4(got.body)).toBe(true)
      expectError(await anonymous(linkPath(keptLink)), 403, "forbidden")
    } finally {
      await setKept(de, true)
    }
    expect((await bytes(linkPath(keptLink))).response.status).toBe(200)
  })

  it("is documented without a bearer requirement", async () => {
    const doc = (await anonymous("/v1/openapi.json")).body
    const linked = doc.paths["/v1/export-files/{jobId}"].get
    expect(linked.security ?? []).toEqual([])
    expect(Object.keys(linked.responses["200"].content)).toEqual(["video/mp4"])
    expect(doc.paths["/v1/direct-export/video/{jobId}/download"].get.security).not.toEqual([])
  })

  it("needs renders:write", async () => {
    expectError(await readOnly.post(`/v1/direct-export/video/${en}/link`), 403, "forbidden")
  })
})

describe("zip", () => {
  it("holds one uniquely named mp4 per export, as an attachment", async () => {
    const r = await bytes("/v1/direct-export/zip", {}, key, { jobIds: [en, de, twin, en] })
    expect(r.response.status).toBe(200)
    expect(r.response.headers.get("content-type")).toBe("application/zip")
    expect(r.response.headers.get("content-disposition")).toMatch(/^attachment; filename="clipwright-exports_.*\.zip"$/)
    const entries = zipEntries(r.body)
    expect(entries.map((e) => e.name)).toEqual([NAME_EN, NAME_DE, NAME_EN.replace(".mp4", " (2).mp4")])
    const size = (await bytes(`/v1/direct-export/video/${en}/download`, {}, key)).body.length
    expect(entries[0]!.size).toBe(size)
    expect(Number(r.response.headers.get("content-length"))).toBe(r.body.length)
  })

  it("takes 1 to 24 jobIds", async () => {
    expectError(await api.post("/v1/direct-export/zip", { jobIds: [] }), 400, "schema_validation")
    const many = Array.from({ length: 25 }, () => en)
    const error = expectError(await api.post("/v1/direct-export/zip", { jobIds: many }), 400, "schema_validation")
    expect(error.details.map((d: { path: string }) => d.path)).toContain("/jobIds")
  })
})

describe("unfinished exports", () => {
  it("download 409, link 502, zip 409 naming it; reuse works while rendering", async () => {
    const started = await api.post("/v1/direct-export/video", videoBody(example))
    expect(started.status).toBe(202)
    const id = started.body.jobId as string
    try {
      expectError(await api.get(`/v1/direct-export/video/${id}/download`), 409, "conflict")
      expectError(await api.post(`/v1/direct-export/video/${id}/link`), 502, "asset_unavailable")
      const zip = expectError(await api.post("/v1/direct-export/zip", { jobIds: [en, id] }), 409, "conflict")
      expect(zip.message).toContain(id)
      expect(zip.details.map((d: { path: string }) => d.path)).toEqual(["/jobIds/1"])
      const reuse = await api.get(`/v1/direct-export/video/${id}/reuse`)
      expect(reuse.status).toBe(200)
      expect(reuse.body.reuse).toMatchObject({ kind: "export", templateId: MARKET, version: "1.0.1", queueId: null })
    } finally {
      await api.post(`/v1/direct-export/video/${id}/discard`)
    }
  })
})

describe("kept exports", () => {
  it("lists kept exports newest first with the total", async () => {
    const r = await api.get("/v1/direct-export/videos")
    expect(r.status, r.text).toBe(200)
    expect(r.body.kept).toBe(3)
    expect(r.body.exports.map((e: { jobId: string }) => e.jobId)).toEqual([twin, de, en])
    const entry = r.body.exports.find((e: { jobId: string }) => e.jobId === de)
    expect(Object.keys(entry).sort()).toEqual([
      "brandId",
      "byteSize",
      "createdAt",
      "createdBy",
      "durationMs",
      "height",
      "jobId",
      "locale",
      "ratio",
      "templateId",
      "templateName",
      "version",
      "videoUrl",
      "width"
    ])
    expect(entry).toMatchObject({
      templateId: MARKET,
      version: "1.0.1",
      ratio: "1x1",
      locale: "de",
      brandId: null,
      durationMs: 6000
    })
    expect(entry.createdBy).toMatch(/^apikey:/)
    expect(entry.videoUrl).toMatch(new RegExp(`/v1/direct-export/video/${de}/download$`))
    const one = await api.get("/v1/direct-export/videos?limit=1")
    expect(one.body.exports).toHaveLength(1)
    expect(one.body.kept).toBe(3)
    for (const limit of ["0", "101", "abc", "2.5"]) {
      expectError(await api.get(`/v1/direct-export/videos?limit=${limit}`), 400, "schema_validation")
    }
  })

  it("shows one kept export with its content; not kept: 404", async () => {
    const r = await api.get(`/v1/direct-export/videos/${twin}`)
    expect(r.status, r.text).toBe(200)
    expect(r.body.export).toMatchObject({ jobId: twin, variant: "compact", title: "Second take", data: example })
    await setKept(twin, false)
    try {
      expectError(await api.get(`/v1/direct-export/videos/${twin}`), 404, "not_found")
    } finally {
      await setKept(twin, true)
    }
  })

  it("reuse gives what a finished export was drawn from and makes nothing", async () => {
    const jobs = await query(db.url, "SELECT count(*)::int AS n FROM render_jobs")
    const r = await api.get(`/v1/direct-export/video/${de}/reuse`)
    expect(r.status, r.text).toBe(200)
    expect(r.body.reuse).toEqual({
      kind: "export",
      templateId: MARKET,
      templateName: "Market move",
      variant: "compact",
      version: "1.0.1",
      pinnedVersion: "1.0.1",
      brandId: null,
      ratio: "1x1",
      locale: "de",
      data: { ...example, locales: { de: { clipData: { headline: "Ölpreis steigt" } } } },
      title: null,
      queueId: null
    })
    expect(await query(db.url, "SELECT count(*)::int AS n FROM render_jobs")).toEqual(jobs)
  })
})

describe("tenancy and discard", () => {
  it("answers 404 for another workspace's export on every route", async () => {
    expectError(await other.get(`/v1/direct-export/video/${en}/download`), 404, "not_found")
    expectError(await other.get(`/v1/direct-export/video/${en}/download?as=video`), 404, "not_found")
    expectError(await other.post(`/v1/direct-export/video/${en}/link`), 404, "not_found")
    expectError(await other.post("/v1/direct-export/zip", { jobIds: [en] }), 404, "not_found")
    expectError(await other.get(`/v1/direct-export/videos/${en}`), 404, "not_found")
    expectError(await other.get(`/v1/direct-export/video/${en}/reuse`), 404, "not_found")
    const list = await other.get("/v1/direct-export/videos")
    expect(list.body).toEqual({ exports: [], kept: 0 })
  })

  it("after discard: download, link, zip and an issued link answer 404", async () => {
    const issued = (await api.post(`/v1/direct-export/video/${twin}/link`)).body.url as string
    expect((await api.post(`/v1/direct-export/video/${twin}/discard`)).body).toEqual({ discarded: true })
    expectError(await api.get(`/v1/direct-export/video/${twin}/download`), 404, "not_found")
    expectError(await api.post(`/v1/direct-export/video/${twin}/link`), 404, "not_found")
    expectError(await api.post("/v1/direct-export/zip", { jobIds: [en, twin] }), 404, "not_found")
    expectError(await anonymous(linkPath(issued)), 404, "not_found")
    expect((await api.get("/v1/direct-export/videos")).body.kept).toBe(2)
  })
})
