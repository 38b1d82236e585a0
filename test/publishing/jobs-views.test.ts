import { beforeAll, describe, expect, it } from "vitest"
import { client, OWNER_EMAIL, workspaceWithKey } from "../support/Client.js"
import { INDEX_CLOSE, sendForLater, settledJobs } from "../support/Jobs.js"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET, newEventId } from "../support/Routes.js"

type Api = ReturnType<typeof client>

const SCOPES = ["streams:write", "channels:write", "channels:read", "brands:write", "ingest:write", "posts:read"]

let api: Api
const ids = { house: "", wire: "", shorts: "", telegram: "", reviewed: "" }
/**
 * Each event's jobs, by channel. Gold came through the stream, its posts due once rendered: now PUBLISHED. Silver came
 * through the index-close feed (origin manual) with its posts scheduled an hour ahead: SCHEDULED.
 */
const gold: Record<string, string> = {}
const silver: Record<string, string> = {}
/** Between the two events: every gold job was created and last updated (published) before it, every silver job after. */
let between = ""

const contentAbout = (metal: string, caption: string) => ({
  clipData: { headline: `${metal} climbs to a record`, subline: "Bullion tops $2,400" },
  metaData: {
    title: `${metal} at a record`,
    captionShort: `${metal}: record.`,
    captionMedium: caption,
    captionLong: `${caption} The dollar slid for a third day.`,
    hashtags: [metal.toLowerCase(), "markets"]
  },
  locales: { de: { metaData: { title: `${metal} auf Rekordhoch`, captionShort: `${metal}: Rekord.` } } }
})

/** Notes the event's jobs by channel once they are rendered and, those due, handed over. */
const settle = async (ingestEventId: string, into: Record<string, string>) => {
  for (const job of await settledJobs(db.url, "ingest_event_id = $1", [ingestEventId])) {
    into[job.channel_id as string] = job.id as string
  }
}

const { db, node } = useNode({ label: "jobs_views" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, SCOPES, "Views", OWNER_EMAIL)
  api = ws.api
  ids.house = (await api.post("/v1/brands", { name: "House" })).body.brand.id
  ids.wire = (await api.post("/v1/brands", { name: "Wire" })).body.brand.id
  const stream = (await api.post("/v1/streams", { name: "Prices", templateId: MARKET })).body.stream
  const channel = async (body: Record<string, unknown>) => {
    const made = await api.post("/v1/channels", body)
    expect(made.status, made.text).toBe(201)
    for (const input of [{ kind: "STREAM", streamId: stream.id }, INDEX_CLOSE]) {
      const sub = await api.post(`/v1/channels/${made.body.channel.id}/subscriptions`, {
        ...input,
        templateVariant: "compact"
      })
      expect(sub.status, sub.text).toBe(201)
    }
    return made.body.channel.id as string
  }
  ids.shorts = await channel({ name: "Shorts", surface: "youtube-shorts", locale: "en", brandId: ids.house })
  ids.telegram = await channel({
    name: "Telegram DE",
    surface: "telegram",
    ratio: "1x1",
    locale: "de",
    brandId: ids.wire
  })
  ids.reviewed = await channel({
    name: "Reviewed",
    surface: "tiktok",
    locale: "en",
    approval: "PER_POST",
    brandId: ids.house
  })

  const data = contentAbout("Gold", "Gold climbed to a record on Tuesday.")
  const sent = await api.post("/v1/stream", {
    streamId: stream.id,
    eventId: newEventId(),
    occurredAt: new Date().toISOString(),
    data
  })
  expect(sent.status, sent.text).toBe(202)
  await settle(sent.body.ingestEventId, gold)
  between = new Date().toISOString()
  const later = await sendForLater(api, contentAbout("Silver", "Silver climbed to a record on Wednesday."))
  await settle(later.ingestEventId, silver)
}, 300_000)

const jobIds = (r: { body: { jobs: Array<{ id: string }> } }) => r.body.jobs.map((j) => j.id).sort()
const sorted = (...lists: Array<Array<string>>) => lists.flat().sort()

describe("GET /v1/jobs", () => {
  it("lists every job newest first with the spec's fields", async () => {
    const r = await api.get("/v1/jobs")
    expect(r.status, r.text).toBe(200)
    expect(r.body).toMatchObject({ total: 6, all: 6, page: 1, perPage: 25, unstaged: 0 })
    // The silver event came second: its three jobs come first.
    expect(r.body.jobs.slice(0, 3).map((j: any) => j.id).sort()).toEqual(Object.values(silver).sort())
    const job = r.body.jobs.find((j: any) => j.id === silver[ids.telegram])
    expect(Object.keys(job).sort()).toEqual([
      "approval",
      "approvalId",
      "brandName",
      "caption",
      "channelId",
      "channelName",
      "clip",
      "createdAt",
      "deletable",
      "details",
      "error",
      "id",
      "locale",
      "origin",
      "permalink",
      "platform",
      "postTitle",
      "priority",
      "progress",
      "publishedAt",
      "ratio",
      "renderJobId",
      "repostable",
      "scheduledFor",
      "status",
      "surfaceLabel",
      "templateName",
      "templateVariant",
      "templateVersion",
      "title",
      "updatable",
      "updatedAt"
    ])
    expect(job).toMatchObject({
      status: "SCHEDULED",
      progress: 1,
      origin: "manual",
      details: "markets/index-close",
      postTitle: "Silver at a record",
      channelId: ids.telegram,
      channelName: "Telegram DE",
      brandName: "Wire",
      platform: "telegram",
      surfaceLabel: "Telegram",
      ratio: "1x1",
      locale: "de",
      caption: "Silver: Rekord.",
      title: "Silver auf Rekordhoch",
      publishedAt: null,
      permalink: null,
      error: null,
      templateVariant: "compact",
      templateVersion: null,
      updatable: false,
      repostable: false,
      deletable: false,
      priority: false,
      approvalId: null,
      approval: { required: false, state: null, login: null, name: null }
    })
    expect(typeof job.templateName).toBe("string")
    expect(job.templateName).not.toBe(MARKET)
    expect(job.renderJobId).toMatch(/^[0-9A-Z]{26}$/)
    expect(Date.parse(job.scheduledFor)).toBeGreaterThan(Date.now())
    expect(job.clip).toMatchObject({ mimeType: "video/mp4" })
    // The gold one went out: published, and from then on it may be updated, deleted or posted again.
    const published = r.body.jobs.find((j: any) => j.id === gold[ids.telegram])
    expect(published).toMatchObject({
      status: "PUBLISHED",
      origin: "custom",
      details: "Prices",
      postTitle: "Gold at a record",
      channelName: "Telegram DE",
      caption: "Gold: Rekord.",
      permalink: null,
      error: null,
      updatable: true,
      repostable: true,
      deletable: true
    })
    expect(Date.parse(published.publishedAt)).toBeGreaterThanOrEqual(Date.parse(published.scheduledFor))
    expect(Date.parse(published.publishedAt)).toBeLessThanOrEqual(Date.parse(between))

    const video = await fetch(job.clip.url)
    expect(video.status).toBe(200)
    const bytes = Buffer.from(await video.arrayBuffer())
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp")
  })

  it("shows a PER_POST channel's job waiting on its pending approval", async () => {
    const r = await api.get(`/v1/jobs?channelId=${ids.reviewed}`)
    expect(jobIds(r)).toEqual(sorted([gold[ids.reviewed]!, silver[ids.reviewed]!]))
    for (const job of r.body.jobs) {
      expect(job).toMatchObject({
        status: "AWAITING_APPROVAL",
        platform: "tiktok",
        surfaceLabel: "TikTok",
        approval: { required: true, state: "PENDING", login: null, name: null }
      })
      expect(job.approvalId).toMatch(/^[0-9A-Z]{26}$/)
    }
  })

  it("counts stages and facets, and names the page's channels and brands", async () => {
    const r = await api.get("/v1/jobs")
    expect(r.body.stages).toEqual({
      rendering: 0,
      approval: 2,
      scheduled: 2,
      publishing: 0,
      published: 2,
      failed: 0,
      rejected: 0,
      cancelled: 0,
      deleted: 0
    })
    expect(r.body.facets.stage).toEqual(r.body.stages)
    expect(r.body.facets.approval).toEqual({ pending: 2, approved: 0, rejected: 0, none: 4 })
    expect(r.body.facets.platform).toMatchObject({ youtube: 2, telegram: 2, tiktok: 2, instagram: 0, facebook: 0 })
    expect(r.body.facets.origin).toEqual({ shipped: 0, custom: 3, manual: 3 })
    expect(r.body.labels).toEqual({
      channelId: { [ids.shorts]: "Shorts", [ids.telegram]: "Telegram DE", [ids.reviewed]: "Reviewed" },
      brandId: { [ids.house]: "House", [ids.wire]: "Wire" }
    })
    // `stages` follow the other filters; facets follow only the scope (q, channel, brand, window).
    const tiktok = await api.get("/v1/jobs?platform=tiktok&stage=scheduled")
    expect(tiktok.body).toMatchObject({ jobs: [], total: 0, all: 6 })
    expect(tiktok.body.stages).toMatchObject({ approval: 2, scheduled: 0, published: 0 })
    expect(tiktok.body.facets.platform).toMatchObject({ youtube: 2, telegram: 2, tiktok: 2 })
    const page = await api.get(`/v1/jobs?channelId=${ids.telegram}`)
    expect(page.body.labels).toEqual({ channelId: { [ids.telegram]: "Telegram DE" }, brandId: { [ids.wire]: "Wire" } })
  })

  it("filters by stage, channel, brand, platform, origin and approval", async () => {
    const expectIds = async (params: string, expected: Array<string>) => {
      const r = await api.get(`/v1/jobs?${params}`)
      expect(r.status, r.text).toBe(200)
      expect(jobIds(r), params).toEqual(expected.sort())
      expect(r.body.total, params).toBe(expected.length)
      expect(r.body.all, params).toBe(6)
    }
    const on = (channel: string) => [gold[channel]!, silver[channel]!]
    await expectIds("stage=approval", on(ids.reviewed))
    await expectIds("stage=scheduled", [silver[ids.shorts]!, silver[ids.telegram]!])
    await expectIds("stage=published", [gold[ids.shorts]!, gold[ids.telegram]!])
    await expectIds("stage=failed", [])
    await expectIds(`channelId=${ids.shorts}`, on(ids.shorts))
    await expectIds(`brandId=${ids.wire}`, on(ids.telegram))
    await expectIds(`brandId=${ids.house}&stage=scheduled`, [silver[ids.shorts]!])
    await expectIds("platform=youtube", on(ids.shorts))
    await expectIds("origin=custom", Object.values(gold))
    await expectIds("origin=manual", Object.values(silver))
    await expectIds("origin=shipped", [])
    await expectIds("approval=pending", on(ids.reviewed))
    await expectIds("approval=none", [...on(ids.shorts), ...on(ids.telegram)])
    await expectIds("approval=approved", [])
  })

  it("searches with q and windows with since and until", async () => {
    const silverJobs = Object.values(silver)
    const r = await api.get("/v1/jobs?q=silver%20AT")
    expect(jobIds(r)).toEqual(sorted(silverJobs))
    expect(r.body).toMatchObject({ total: 3, all: 6 })
    expect(r.body.facets.origin).toEqual({ shipped: 0, custom: 0, manual: 3 })
    expect(jobIds(await api.get("/v1/jobs?q=telegram"))).toEqual(sorted([gold[ids.telegram]!, silver[ids.telegram]!]))
    expect(jobIds(await api.get(`/v1/jobs?q=${gold[ids.shorts]!.toLowerCase()}`))).toEqual([gold[ids.shorts]])
    expect((await api.get("/v1/jobs?q=100%25")).body).toMatchObject({ jobs: [], total: 0, all: 6 })

    expect(jobIds(await api.get(`/v1/jobs?until=${encodeURIComponent(between)}`))).toEqual(sorted(Object.values(gold)))
    const since = await api.get(`/v1/jobs?since=${encodeURIComponent(between)}`)
    expect(jobIds(since)).toEqual(expect.arrayContaining(silverJobs))
    expect(jobIds(await api.get("/v1/jobs?since=2020-01-01T00:00:00Z&until=2020-12-31T00:00:00Z"))).toEqual([])
  })

  it("pages newest first without overlap", async () => {
    const whole = (await api.get("/v1/jobs")).body.jobs
    const first = await api.get("/v1/jobs?perPage=4")
    const second = await api.get("/v1/jobs?perPage=4&page=2")
    expect(first.body).toMatchObject({ page: 1, perPage: 4, total: 6 })
    expect(second.body).toMatchObject({ page: 2, perPage: 4, total: 6 })
    expect([...first.body.jobs, ...second.body.jobs].map((j: any) => j.id)).toEqual(whole.map((j: any) => j.id))
    expect((await api.get("/v1/jobs?page=3&perPage=4")).body.jobs).toEqual([])
    const created = whole.map((j: any) => j.createdAt as string)
    expect([...created].sort().reverse()).toEqual(created)
  })

  it("refuses bad filter values with 400, naming the parameter", async () => {
    const refused = { stage: "done", platform: "myspace", approval: "maybe", origin: "robot", since: "yesterday" }
    for (const [param, value] of Object.entries({ ...refused, until: "2026-11-23", perPage: "101", page: "0" })) {
      const error = expectError(await api.get(`/v1/jobs?${param}=${value}`), 400, "schema_validation")
      expect(JSON.stringify(error.details), param).toContain(param)
    }
  })
})

describe("GET /v1/posts", () => {
  it("lists each job's post with its clip as a signed asset", async () => {
    const r = await api.get("/v1/posts")
    expect(r.status, r.text).toBe(200)
    expect(r.body).toMatchObject({ total: 6, all: 6, page: 1, perPage: 25 })
    const post = r.body.posts.find((p: any) => p.postGroupId === gold[ids.shorts])
    expect(Object.keys(post).sort()).toEqual([
      "assets",
      "brandName",
      "caption",
      "channelName",
      "clipStored",
      "connected",
      "createdAt",
      "details",
      "failureReason",
      "hashtags",
      "id",
      "locale",
      "origin",
      "permalink",
      "platform",
      "platformPostId",
      "postGroupId",
      "postTitle",
      "publishedAt",
      "ratio",
      "scheduledFor",
      "state",
      "surfaceLabel",
      "title"
    ])
    expect(post).toMatchObject({
      origin: "custom",
      details: "Prices",
      postTitle: "Gold at a record",
      state: "PUBLISHED",
      platform: "youtube",
      surfaceLabel: "YouTube Shorts",
      channelName: "Shorts",
      brandName: "House",
      locale: "en",
      ratio: "9x16",
      title: "Gold at a record",
      caption: "Gold climbed to a record on Tuesday. The dollar slid for a third day.",
      hashtags: ["gold", "markets"],
      platformPostId: null,
      permalink: null,
      failureReason: null,
      connected: true,
      clipStored: true
    })
    expect(Date.parse(post.publishedAt)).toBeGreaterThanOrEqual(Date.parse(post.scheduledFor))
    expect(post.assets).toHaveLength(1)
    expect(Date.parse(post.assets[0].expiresAt)).toBeGreaterThan(Date.now())
    const video = await fetch(post.assets[0].url)
    expect(video.status).toBe(200)
    // The job lists the same clip as its post.
    const job = (await api.get(`/v1/jobs?q=${gold[ids.shorts]}`)).body.jobs[0]
    expect(job.clip.id).toBe(post.assets[0].assetId)
    const scheduled = r.body.posts.find((p: any) => p.postGroupId === silver[ids.shorts])
    expect(scheduled).toMatchObject({ origin: "manual", state: "SCHEDULED", publishedAt: null, clipStored: true })
    expect(Date.parse(scheduled.scheduledFor)).toBeGreaterThan(Date.now())
  })

  it("filters by state, platform, channel and q, counting facets over channel and q", async () => {
    const r = await api.get("/v1/posts?state=AWAITING_APPROVAL")
    expect(r.body.posts.map((p: any) => p.postGroupId).sort()).toEqual(
      sorted([gold[ids.reviewed]!, silver[ids.reviewed]!])
    )
    expect(r.body).toMatchObject({ total: 2, all: 6 })
    expect(r.body.facets.state).toMatchObject({ SCHEDULED: 2, AWAITING_APPROVAL: 2, PUBLISHED: 2, RENDERING: 0 })
    expect(r.body.facets.platform).toMatchObject({ youtube: 2, telegram: 2, tiktok: 2, linkedin: 0 })
    const telegram = await api.get("/v1/posts?platform=telegram&q=silver")
    expect(telegram.body.posts.map((p: any) => p.postGroupId)).toEqual([silver[ids.telegram]])
    expect(telegram.body.facets.platform).toMatchObject({ youtube: 1, telegram: 1, tiktok: 1 })
    const channel = await api.get(`/v1/posts?channelId=${ids.shorts}`)
    expect(channel.body.posts.map((p: any) => p.channelName)).toEqual(["Shorts", "Shorts"])
    expect(channel.body).toMatchObject({ total: 2, all: 6 })
    expectError(await api.get("/v1/posts?state=LOST"), 400, "schema_validation")
    expectError(await api.get("/v1/posts?platform=myspace"), 400, "schema_validation")
  })
})

describe("tenancy", () => {
  it("shows another workspace nothing of this one's, even by id", async () => {
    const other = await workspaceWithKey(node, ["posts:read"], "Elsewhere")
    const jobs = await other.api.get(`/v1/jobs?channelId=${ids.shorts}`)
    expect(jobs.status, jobs.text).toBe(200)
    expect(jobs.body).toMatchObject({ jobs: [], total: 0, all: 0, labels: { channelId: {}, brandId: {} } })
    expect((await other.api.get("/v1/jobs")).body).toMatchObject({ jobs: [], total: 0, all: 0 })
    expect((await other.api.get(`/v1/jobs?q=${gold[ids.shorts]}`)).body.jobs).toEqual([])
    expect((await other.api.get("/v1/posts")).body).toMatchObject({ posts: [], total: 0, all: 0 })
  })
})
