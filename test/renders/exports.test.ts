import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { readMp4Info } from "../../src/drawing/Mp4Info.js"
import { admin, type client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { compactExample, MARKET, videoBody, waitForExport } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"

let api: ReturnType<typeof client>
let example: Record<string, unknown>

const { db, node } = useNode({ label: "exports", env: { RENDER_SLOTS: "2" } })

beforeAll(async () => {
  api = (await workspaceWithKey(node, ["renders:read", "renders:write", "templates:read"])).api
  example = await compactExample(api)
})

describe("direct export", () => {
  it("timing answers fps, frames and duration and stores nothing", async () => {
    const r = await api.post("/v1/direct-export/timing", {
      templateId: MARKET,
      variant: "compact",
      version: "1.0.1",
      data: example
    })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ fps: 30, frames: 180, durationMs: 6000 })
    expect(await query(db.url, "SELECT id FROM render_jobs")).toEqual([])
  })

  it("renders a video: 202 jobId, progress to succeeded, kept, listed in the queue", async () => {
    const started = await api.post("/v1/direct-export/video", videoBody(example))
    expect(started.status).toBe(202)
    expect(started.body.jobId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    const done = await waitForExport(api, started.body.jobId)
    expect(done).toMatchObject({
      status: "succeeded",
      progress: 1,
      renderer: "COMPLETED",
      ahead: 0,
      error: null,
      kept: true
    })
    const queue = await api.get("/v1/direct-export/queue")
    const entry = queue.body.exports.find((e: { jobId: string }) => e.jobId === started.body.jobId)
    expect(entry).toMatchObject({
      templateId: MARKET,
      variant: "compact",
      version: "1.0.1",
      ratio: "1x1",
      locale: "en",
      kept: true
    })
    expect(entry.byteSize).toBeGreaterThan(10_000)
    expect(entry.durationMs).toBe(6000)
    const committed = await query(db.url, "SELECT state FROM allowance_reservations WHERE render_job_id = $1", [
      started.body.jobId
    ])
    expect(committed).toEqual([{ state: "committed" }])
    // The stored file is the full-size clip of the build: 1080×1080, 180 frames at 30 fps, H.264 with faststart.
    const [clip] = await query<{ blob_key: string }>(db.url, "SELECT blob_key FROM clips WHERE render_job_id = $1", [
      started.body.jobId
    ])
    const info = await readMp4Info(path.join(node.dataDir, "blobs", clip!.blob_key))
    expect(info.video).toMatchObject({ width: 1080, height: 1080, samples: 180, fps: 30 })
    expect(info.faststart).toBe(true)
  })

  it("refuses before submitting anything: template, version, ratio, locale, content, batch size", async () => {
    const cases: Array<[Record<string, unknown>, number, string, string | undefined]> = [
      [videoBody(example, { templateId: "tpl_000000000000" }), 404, "unknown_template", undefined],
      [videoBody(example, { version: "9.9.9" }), 404, "unknown_template", undefined],
      [videoBody(example, { version: undefined }), 400, "schema_validation", "/version"],
      [videoBody(example, { version: "latest" }), 400, "schema_validation", "/version"],
      [videoBody(example, { ratio: "16x9" }), 400, "ratio_not_supported", undefined],
      [videoBody(example, { locale: "ar" }), 400, "locale_not_supported", undefined],
      [videoBody({ clipData: { headline: "x".repeat(81) } }), 400, "schema_validation", "/data/clipData/headline"]
    ]
    for (const [body, status, code, path] of cases) {
      const r = await api.post("/v1/direct-export/video", body)
      expect(r.status, JSON.stringify(body).slice(0, 120)).toBe(status)
      expect(r.body.error.code).toBe(code)
      if (path !== undefined) expect(r.body.error.details.map((d: { path: string }) => d.path)).toContain(path)
    }
    const tooMany = await api.post("/v1/direct-export/batch", {
      ...videoBody(example),
      ratios: ["1x1", "9x16", "4x5"],
      locales: ["en", "de", "fr", "es", "it", "nl", "pl", "sv", "da"]
    })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error.code).toBe("schema_validation")
    const before = await query(db.url, "SELECT count(*)::int AS n FROM render_jobs")
    expect(before[0]).toEqual({ n: 1 })
  })

  it("batch: one video per ratio per locale", async () => {
    const data = { ...example, locales: { de: { clipData: { headline: "Ölpreis steigt" } } } }
    const r = await api.post("/v1/direct-export/batch", {
      ...videoBody(data),
      ratios: ["1x1", "9x16"],
      locales: ["en", "de"]
    })
    expect(r.status).toBe(202)
    expect(r.body.problem).toBeNull()
    expect(r.body.jobs.map((j: { ratio: string; locale: string }) => `${j.ratio}/${j.locale}`).sort()).toEqual([
      "1x1/de",
      "1x1/en",
      "9x16/de",
      "9x16/en"
    ])
    const results = await Promise.all(r.body.jobs.map((j: { jobId: string }) => waitForExport(api, j.jobId, 180_000)))
    expect(results.every((x) => x.status === "succeeded")).toBe(true)
  }, 240_000)

  it("discard while rendering stops it, releases the allowance and answers false the second time", async () => {
    const started = await api.post("/v1/direct-export/video", videoBody(example))
    expect(started.status).toBe(202)
    const first = await api.post(`/v1/direct-export/video/${started.body.jobId}/discard`)
    expect(first.body).toEqual({ discarded: true })
    const second = await api.post(`/v1/direct-export/video/${started.body.jobId}/discard`)
    expect(second.body).toEqual({ discarded: false })
    expect((await api.get(`/v1/direct-export/video/${started.body.jobId}`)).status).toBe(404)
    const deadline = Date.now() + 20_000
    let rows: Array<Record<string, unknown>> = []
    while (Date.now() < deadline) {
      rows = await query(db.url, "SELECT state FROM allowance_reservations WHERE render_job_id = $1", [
        started.body.jobId
      ])
      if (rows[0]?.["state"] === "released") break
      await new Promise((r) => setTimeout(r, 300))
    }
    expect(rows).toEqual([{ state: "released" }])
    const job = await query(db.url, "SELECT state FROM render_jobs WHERE id = $1", [started.body.jobId])
    expect(job).toEqual([{ state: "CANCELLED" }])
  })

  it("another workspace's export answers like a missing one", async () => {
    const other = (await workspaceWithKey(node, ["renders:read", "renders:write"], "Other")).api
    const mine = (await api.get("/v1/direct-export/queue")).body.exports[0].jobId
    expect((await other.get(`/v1/direct-export/video/${mine}`)).status).toBe(404)
    expect((await other.post(`/v1/direct-export/video/${mine}/discard`)).status).toBe(404)
    expect((await api.get("/v1/direct-export/video/01J00000000000000000000000")).status).toBe(404)
  })
})

describe("allowance", () => {
  it("never over-spends: 10 parallel submits at an allowance of 3 start exactly 3; the rest are 429", async () => {
    const ws = await workspaceWithKey(node, ["renders:read", "renders:write"], "Tight")
    const limits = await admin(node).put(`/admin/workspaces/${ws.accountId}/limits`, { renderAllowance: 3 })
    expect(limits.status).toBe(200)
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => ws.api.post("/v1/direct-export/video", videoBody(example)))
    )
    const accepted = answers.filter((a) => a.status === 202)
    const refused = answers.filter((a) => a.status === 429)
    expect(accepted).toHaveLength(3)
    expect(refused).toHaveLength(7)
    const envelope = refused[0]!.body.error
    expect(envelope.code).toBe("rate_limited")
    expect(envelope.retryAfterSeconds).toBeGreaterThan(0)
    expect(envelope.message).toMatch(/allowance of 3/)
    expect(envelope.message).toMatch(/resets on \d{4}-\d{2}-01/)
    expect(refused[0]!.headers.get("retry-after")).not.toBeNull()
    for (const a of accepted) await ws.api.post(`/v1/direct-export/video/${a.body.jobId}/discard`)
  })
})
