import { beforeAll, describe, expect, it } from "vitest"
import { admin, client, workspaceWithKey } from "../support/Client.js"
import { compactExample, MARKET, videoBody, waitForExport } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"

type Api = ReturnType<typeof client>

const STATES = [
  "PENDING",
  "SUBMITTED",
  "RENDERING",
  "DOWNLOADING",
  "STORED",
  "COMPLETED",
  "PARTIAL",
  "FAILED",
  "TIMED_OUT",
  "CANCELLED"
]

let api: Api
let accountId: string
let example: Record<string, unknown>
let done: string
let quotaBefore: any

const { node } = useNode({ label: "render_jobs" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, ["renders:read", "renders:write", "templates:read", "allowance:read"], "Jobs")
  api = ws.api
  accountId = ws.accountId
  example = await compactExample(api)
  quotaBefore = (await api.get("/v1/renders/quota")).body
  const started = await api.post("/v1/direct-export/video", videoBody(example, { title: "Oil up" }))
  expect(started.status, started.text).toBe(202)
  done = started.body.jobId
  expect(await waitForExport(api, done, 120_000)).toMatchObject({ status: "succeeded", kept: true })
}, 180_000)

describe("GET /v1/renders/quota", () => {
  it("counts the finished export against the allowance and its clip against storage", async () => {
    expect(quotaBefore.quota.used).toBe(0)
    expect(quotaBefore.storage.usedBy).toEqual({ media: 0, renders: 0 })
    const r = await api.get("/v1/renders/quota")
    expect(r.status).toBe(200)
    const { partners, quota, seats, storage } = r.body
    expect(quota).toMatchObject({ allowance: quotaBefore.quota.allowance, used: 1, extra: 0, unlimited: false })
    expect(quota.remaining).toBe(quota.allowance - 1)
    expect(new Date(quota.periodStart).getUTCDate()).toBe(1)
    expect(seats).toEqual({ used: 0, max: null, unlimited: true })
    expect(partners).toEqual({ used: 0, max: 0, unlimited: false })
    expect(storage.usedBy.media).toBe(0)
    expect(storage.usedBy.renders).toBeGreaterThan(0)
    expect(storage.usedBytes).toBe(storage.usedBy.renders)
    expect(storage.clips.usedBytes).toBe(storage.usedBy.renders)
    expect(storage.maxBytes).toBe(storage.maxMb * 1024 * 1024)
    expect(storage.media.maxBytes + storage.clips.maxBytes).toBe(storage.maxBytes)
    expect(storage.remainingBytes).toBe(storage.maxBytes - storage.usedBytes)
    expect(storage).toMatchObject({ mediaPercent: 50, split: { minPercent: 10, maxPercent: 90 }, max: storage.maxMb })
    expect(storage.used).toBeGreaterThanOrEqual(0)
  })

  it("counts seats against the workspace's limit, and the admin limits route answers the same quota", async () => {
    const a = admin(node)
    expect(
      (await a.post(`/admin/workspaces/${accountId}/members`, { email: "ops@example.com", role: "operations" }))
        .status
    ).toBe(201)
    const limits = await a.put(`/admin/workspaces/${accountId}/limits`, { seats: 3 })
    expect(limits.status).toBe(200)
    expect(limits.body.quota.used).toBe(1)
    const r = await api.get("/v1/renders/quota")
    expect(r.body.seats).toEqual({ used: 1, max: 3, unlimited: false })
    expect(r.body.quota).toEqual({ ...limits.body.quota })
  })
})

describe("GET /v1/render-jobs", () => {
  it("lists the export's render job in the spec's shape", async () => {
    const r = await api.get("/v1/render-jobs")
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ total: 1, all: 1, page: 1, perPage: 20 })
    expect(Object.keys(r.body.facets.state).sort()).toEqual([...STATES].sort())
    expect(r.body.facets.state.COMPLETED).toBe(1)
    const [job] = r.body.jobs
    expect(job).toMatchObject({
      id: done,
      origin: "export",
      postTitle: "Oil up",
      templateId: MARKET,
      templateName: "Market move",
      templateVariant: "compact",
      templateVersion: "1.0.1",
      state: "COMPLETED",
      outputsRequested: 1,
      outputsSucceeded: 1,
      error: null,
      priority: 0,
      clipsStored: 1,
      progress: 1,
      outputs: [{ ratio: "1x1", locale: "en", state: "succeeded", error: null }]
    })
    expect(typeof job.details).toBe("string")
    expect(new Date(job.finishedAt).getTime()).toBeGreaterThanOrEqual(new Date(job.submittedAt).getTime())
    expect(job.clip.mimeType).toBe("video/mp4")
    expect(job.clip.url).toMatch(new RegExp(`/v1/assets/${job.clip.id}/download\\?exp=\\d+&sig=`))
  })

  it("filters by state, keeping total against all and the facets whole", async () => {
    const failed = await api.get("/v1/render-jobs?state=FAILED")
    expect(failed.status).toBe(200)
    expect(failed.body).toMatchObject({ jobs: [], total: 0, all: 1 })
    expect(failed.body.facets.state.COMPLETED).toBe(1)
    const completed = await api.get("/v1/render-jobs?state=COMPLETED")
    expect(completed.body.jobs.map((j: { id: string }) => j.id)).toEqual([done])
    expect(completed.body.total).toBe(1)
  })

  it("lists newest first and pages", async () => {
    const second = await api.post("/v1/direct-export/video", videoBody(example, { title: "Second" }))
    expect(second.status, second.text).toBe(202)
    await waitForExport(api, second.body.jobId, 120_000)
    const list = await api.get("/v1/render-jobs")
    expect(list.body.jobs.map((j: { id: string }) => j.id)).toEqual([second.body.jobId, done])
    expect(list.body.all).toBe(2)
    const counted = STATES.reduce((n, s) => n + list.body.facets.state[s], 0)
    expect(counted).toBe(2)
    const page2 = await api.get("/v1/render-jobs?page=2&perPage=1")
    expect(page2.body).toMatchObject({ page: 2, perPage: 1, total: 2, all: 2 })
    expect(page2.body.jobs.map((j: { id: string }) => j.id)).toEqual([done])
    expect((await api.get("/v1/render-jobs?page=3&perPage=1")).body.jobs).toEqual([])
  })

  it("refuses a state outside the ten and paging out of range with 400", async () => {
    for (const query of ["state=DONE", "state=completed", "perPage=101", "perPage=0", "page=0", "page=x"]) {
      const r = await api.get(`/v1/render-jobs?${query}`)
      expect(r.status, query).toBe(400)
      expect(r.body.error.code).toBe("schema_validation")
    }
  })

  it("shows nothing of another workspace, and needs renders:read", async () => {
    const other = await workspaceWithKey(node, ["renders:read"], "Other")
    const r = await other.api.get("/v1/render-jobs")
    expect(r.body).toMatchObject({ jobs: [], total: 0, all: 0 })
    const writer = await workspaceWithKey(node, ["renders:write"], "Writer")
    expect((await writer.api.get("/v1/render-jobs")).status).toBe(403)
    expect((await writer.api.get("/v1/renders/quota")).status).toBe(403)
  })
})

describe("GET /v1/render-jobs/{id}/package", () => {
  it("answers what the renderer was handed", async () => {
    const r = await api.get(`/v1/render-jobs/${done}/package`)
    expect(r.status).toBe(200)
    expect(r.body.package).toEqual({
      jobId: done,
      template: { id: MARKET, name: "Market move", variant: "compact", version: "1.0.1" },
      content: example,
      brand: null,
      channel: null,
      options: { outputs: [{ ratio: "1x1", locale: "en" }], priority: false }
    })
  })

  it("answers 404 for another workspace's job and for an unknown id", async () => {
    const other = await workspaceWithKey(node, ["renders:read"], "Elsewhere")
    const theirs = await other.api.get(`/v1/render-jobs/${done}/package`)
    expect(theirs.status).toBe(404)
    expect(theirs.body.error.code).toBe("not_found")
    expect((await api.get("/v1/render-jobs/01ARZ3NDEKTSV4RRFFQ69G5FAV/package")).status).toBe(404)
  })
})
