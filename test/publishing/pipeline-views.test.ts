import { beforeAll, describe, expect, it } from "vitest"
import { JobStatus } from "../../src/posts/JobStatus.js"
import { RenderJobState } from "../../src/renders/RenderJob.js"
import { client, OWNER_EMAIL, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { INDEX_CLOSE, leftRenderingStage, sendForLater, settledJobs } from "../support/Jobs.js"
import { useNode } from "../support/Rig.js"
import { expectError, indexClose, MARKET, newEventId } from "../support/Routes.js"

let api: ReturnType<typeof client>
let accountId: string
let streamId: string
const channels: Record<"shorts" | "telegram" | "reviewed", string> = { shorts: "", telegram: "", reviewed: "" }
/**
 * Job id per channel id, from each send's answer: the stream event's posts were due once rendered (now PUBLISHED); the
 * feed event's, the same content, are scheduled an hour ahead (SCHEDULED), served by the same videos.
 */
let jobOf: Map<string, string>
let laterJobOf: Map<string, string>
/** States `GET /v1/pipeline/{id}` showed for one job while it was rendering. */
const seenWhileRendering = new Set<string>()

const scopes = ["streams:write", "channels:write", "brands:write", "ingest:write", "posts:read"]

const content = {
  clipData: { headline: "Copper slips on demand worries", subline: "Down 2% on the week" },
  metaData: {
    title: "Copper slips",
    captionShort: "Copper: down.",
    captionMedium: "Copper slipped on demand worries.",
    captionLong: "Copper slipped on Wednesday on worries about demand from builders.",
    hashtags: ["copper"]
  },
  locales: { de: { metaData: { title: "Kupfer gibt nach", captionShort: "Kupfer: schwächer." } } }
}

/** Every state the service knows: the counts list each of them, zero or not. */
const RENDER_STATES = RenderJobState.literals
const JOB_STATUSES = JobStatus.literals
const zeroes = (keys: ReadonlyArray<string>, some: Record<string, number>) =>
  Object.fromEntries(keys.map((key) => [key, some[key] ?? 0]))

const jobMap = (matched: Array<{ channelId: string; postGroupId: string }>) =>
  new Map(matched.map((m) => [m.channelId, m.postGroupId]))

const { db, node } = useNode({ label: "pipeline_views" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, scopes, "Dashboard", OWNER_EMAIL)
  api = ws.api
  accountId = ws.accountId
  expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const stream = (await api.post("/v1/streams", { name: "Metals", templateId: MARKET })).body.stream
  streamId = stream.id
  const channel = async (body: Record<string, unknown>) => {
    const made = await api.post("/v1/channels", body)
    expect(made.status, made.text).toBe(201)
    for (const input of [{ kind: "STREAM", streamId }, INDEX_CLOSE]) {
      const sub = await api.post(`/v1/channels/${made.body.channel.id}/subscriptions`, {
        ...input,
        templateVariant: "compact"
      })
      expect(sub.status, sub.text).toBe(201)
    }
    return made.body.channel.id as string
  }
  channels.shorts = await channel({ name: "Shorts", surface: "youtube-shorts", locale: "en" })
  channels.telegram = await channel({ name: "Telegram DE", surface: "telegram", ratio: "1x1", locale: "de" })
  channels.reviewed = await channel({ name: "Reviewed", surface: "tiktok", locale: "en", approval: "PER_POST" })
  const sent = await api.post("/v1/stream", {
    streamId,
    eventId: newEventId(),
    occurredAt: new Date().toISOString(),
    data: content
  })
  expect(sent.status, sent.text).toBe(202)
  jobOf = jobMap(sent.body.matched)
  await leftRenderingStage(api, [...jobOf.values()], seenWhileRendering)
  await settledJobs(db.url, "ingest_event_id = $1", [sent.body.ingestEventId])
  const later = await sendForLater(api, content)
  laterJobOf = jobMap(later.matched)
  await settledJobs(db.url, "ingest_event_id = $1", [later.ingestEventId])
}, 240_000)

describe("GET /v1/pipeline", () => {
  it("shows a job RENDERING while its video draws (the job row itself stays AWAITING_RENDERING)", () => {
    expect(seenWhileRendering.has("RENDERING")).toBe(true)
  })

  it("counts render jobs and jobs per state, every state listed, and lists the newest", async () => {
    const before = Date.now()
    const r = await api.get("/v1/pipeline")
    expect(r.status, r.text).toBe(200)
    const { at, pollMs, posts, render } = r.body
    expect(Date.parse(at)).toBeGreaterThanOrEqual(before - 1000)
    expect(pollMs).toBe(2000)
    // Shorts and TikTok share one 9x16 English video; Telegram has its own 1x1 German one.
    expect(render.counts).toEqual(zeroes(RENDER_STATES, { COMPLETED: 2 }))
    expect(render.inFlight).toBe(0)
    expect(render.recent).toHaveLength(2)
    for (const entry of render.recent) {
      expect(Object.keys(entry).sort()).toEqual([
        "createdAt",
        "details",
        "id",
        "origin",
        "progress",
        "state",
        "templateId"
      ])
      expect(entry).toMatchObject({ state: "COMPLETED", progress: 1, templateId: MARKET })
    }
    expect(Date.parse(render.recent[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(render.recent[1].createdAt))

    expect(posts.counts).toEqual(zeroes(JOB_STATUSES, { PUBLISHED: 2, SCHEDULED: 2, AWAITING_APPROVAL: 2 }))
    expect(posts.clipCounts).toEqual({ stored: 2, removed: 0 })
    // Published jobs are done; the scheduled and the waiting ones are still in flight.
    expect(posts.inFlight).toBe(4)
    expect(posts.recent.map((e: { id: string }) => e.id).sort()).toEqual(
      [...jobOf.values(), ...laterJobOf.values()].sort()
    )
  })

  it("describes each recent job: where it goes, what it is, how long in its status, and its video", async () => {
    const { posts } = (await api.get("/v1/pipeline")).body
    const entry = (channelId: string, jobs = jobOf) =>
      posts.recent.find((e: { id: string }) => e.id === jobs.get(channelId))
    const fromStream = new Set(jobOf.values())
    const rows = await query(db.url, "SELECT id, updated_at, render_job_id FROM jobs WHERE workspace_id = $1", [
      accountId
    ])
    for (const e of posts.recent) {
      expect(Object.keys(e).sort()).toEqual([
        "brand",
        "channelName",
        "clips",
        "createdAt",
        "error",
        "id",
        "kind",
        "renderPosition",
        "renderWait",
        "source",
        "stageSeconds",
        "stageSince",
        "state",
        "streamId",
        "templateId",
        "title"
      ])
      const row = rows.find((j) => j.id === e.id)!
      expect(e).toMatchObject({
        kind: "postGroup",
        templateId: MARKET,
        brand: "House",
        error: null,
        ...(fromStream.has(e.id) ? { streamId, source: null } : { streamId: null, source: "markets/index-close" })
      })
      expect(e.stageSince).toBe((row.updated_at as Date).toISOString())
      const sinceUpdate = (Date.now() - (row.updated_at as Date).getTime()) / 1000
      expect(e.stageSeconds).toBeGreaterThanOrEqual(Math.floor(sinceUpdate) - 1)
      expect(e.stageSeconds).toBeLessThanOrEqual(Math.floor(sinceUpdate))
      const clips = await query(db.url, "SELECT id FROM clips WHERE render_job_id = $1 AND stored", [row.render_job_id])
      expect(e.clips.map((c: { id: string }) => c.id)).toEqual(clips.map((c) => c.id))
    }
    expect(entry(channels.shorts)).toMatchObject({ state: "PUBLISHED", channelName: "Shorts", title: "Copper slips" })
    expect(entry(channels.telegram)).toMatchObject({
      state: "PUBLISHED",
      channelName: "Telegram DE",
      title: "Kupfer gibt nach"
    })
    expect(entry(channels.reviewed)).toMatchObject({ state: "AWAITING_APPROVAL", channelName: "Reviewed" })
    expect(entry(channels.shorts, laterJobOf)).toMatchObject({
      state: "SCHEDULED",
      channelName: "Shorts",
      title: "Copper slips"
    })
    expect(entry(channels.telegram, laterJobOf)).toMatchObject({
      state: "SCHEDULED",
      channelName: "Telegram DE",
      title: "Kupfer gibt nach"
    })
    expect(entry(channels.reviewed, laterJobOf)).toMatchObject({ state: "AWAITING_APPROVAL", channelName: "Reviewed" })
    // The shared video is the same clip on both channels (and serves the later event's too), and its signed address
    // downloads it without a key.
    expect(entry(channels.shorts).clips).toHaveLength(1)
    expect(entry(channels.shorts).clips[0].id).toBe(entry(channels.reviewed).clips[0].id)
    expect(entry(channels.shorts, laterJobOf).clips[0].id).toBe(entry(channels.shorts).clips[0].id)
    const video = await fetch(entry(channels.shorts).clips[0].url)
    expect(video.status).toBe(200)
    expect(video.headers.get("content-type")).toBe("video/mp4")
  })

  it("lists only `limit` of each, and refuses a limit outside 1..100", async () => {
    const r = await api.get("/v1/pipeline?limit=1")
    expect(r.body.render.recent).toHaveLength(1)
    expect(r.body.posts.recent).toHaveLength(1)
    expect(r.body.posts.counts.SCHEDULED).toBe(2)
    for (const limit of ["0", "101", "x"]) {
      const error = expectError(await api.get(`/v1/pipeline?limit=${limit}`), 400, "schema_validation")
      expect(error.details.map((d) => d.path).join(" ")).toContain("limit")
    }
  })
})

describe("GET /v1/pipeline/{id}", () => {
  it("names the shipped feed (source/format) a feed event came from, and no stream", async () => {
    const feeds = await workspaceWithKey(
      node,
      ["channels:write", "brands:write", "ingest:write", "posts:read"],
      "Feeds"
    )
    expect((await feeds.api.post("/v1/brands", { name: "Desk" })).status).toBe(201)
    const channelId = (await feeds.api.post("/v1/channels", { name: "Markets" })).body.channel.id
    const sub = await feeds.api.post(`/v1/channels/${channelId}/subscriptions`, {
      kind: "BROADCAST",
      sourceSlug: "markets",
      formatSlug: "index-close"
    })
    expect(sub.status, sub.text).toBe(201)
    const pushed = await feeds.api.post("/v1/ingest/markets/index-close", {
      eventId: newEventId(),
      occurredAt: new Date().toISOString(),
      data: indexClose
    })
    expect(pushed.status, pushed.text).toBe(202)
    const r = await feeds.api.get(`/v1/pipeline/${pushed.body.matched[0].postGroupId}`)
    expect(r.status, r.text).toBe(200)
    expect(r.body.job).toMatchObject({
      source: "markets/index-close",
      streamId: null,
      brand: "Desk",
      channelName: "Markets"
    })
  })

  it("answers one job as the list shows it", async () => {
    const id = jobOf.get(channels.telegram)!
    const [one, list] = await Promise.all([api.get(`/v1/pipeline/${id}`), api.get("/v1/pipeline")])
    expect(one.status, one.text).toBe(200)
    expect(one.body.pollMs).toBe(2000)
    expect(typeof one.body.at).toBe("string")
    const listed = list.body.posts.recent.find((e: { id: string }) => e.id === id)
    const stable = ({ clips, stageSeconds: _, ...rest }: Record<string, any>) => ({
      ...rest,
      clipIds: clips.map((c: any) => c.id)
    })
    expect(stable(one.body.job)).toEqual(stable(listed))
  })

  it("answers 404 for a missing job and for another workspace's", async () => {
    expectError(await api.get("/v1/pipeline/01JAAAAAAAAAAAAAAAAAAAAAAA"), 404, "not_found")
    const other = await workspaceWithKey(node, ["posts:read"], "Elsewhere")
    expectError(await other.api.get(`/v1/pipeline/${jobOf.get(channels.shorts)}`), 404, "not_found")
    const theirs = (await other.api.get("/v1/pipeline")).body
    expect(theirs.posts.recent).toEqual([])
    expect(theirs.render.recent).toEqual([])
    expect(theirs.posts.counts).toEqual(zeroes(JOB_STATUSES, {}))
    expect(theirs.posts.clipCounts).toEqual({ stored: 0, removed: 0 })
  })
})

describe("GET /v1/overview", () => {
  it("counts the workspace's configuration, events, renders, assets, posts and what needs a person", async () => {
    const r = await api.get("/v1/overview")
    expect(r.status, r.text).toBe(200)
    expect(r.body).toEqual({
      brands: 1,
      channels: 3,
      subscriptions: 6,
      templates: { mirrored: 0 },
      ingest: { total: 2, last24h: 2 },
      renderJobs: { counts: zeroes(RENDER_STATES, { COMPLETED: 2 }) },
      assets: 2,
      posts: { counts: zeroes(JOB_STATUSES, { PUBLISHED: 2, SCHEDULED: 2, AWAITING_APPROVAL: 2 }) },
      attention: { pendingApprovals: 2, deadDeliveries: 0 }
    })
    const other = await workspaceWithKey(node, ["posts:read"], "Empty")
    expect((await other.api.get("/v1/overview")).body).toMatchObject({
      brands: 0,
      channels: 0,
      assets: 0,
      ingest: { total: 0 }
    })
  })
})

describe("GET /v1/calendar", () => {
  const dayStart = (offsetDays: number) => {
    const d = new Date()
    d.setUTCHours(0, 0, 0, 0)
    return new Date(d.getTime() + offsetDays * 86_400_000)
  }

  it("lists every day of the window and the posts falling in it, by time", async () => {
    const from = dayStart(-1).toISOString()
    const to = dayStart(2).toISOString()
    const r = await api.get(`/v1/calendar?from=${from}&to=${to}`)
    expect(r.status, r.text).toBe(200)
    const stored = await query(
      db.url,
      "SELECT * FROM posts WHERE workspace_id = $1 ORDER BY coalesce(published_at, scheduled_for), id",
      [accountId]
    )
    // A published post falls on the day it was published, the others on the day they are scheduled for.
    const published = new Set([channels.shorts, channels.telegram].map((c) => jobOf.get(c)))
    expect(stored.filter((p) => p.published_at !== null).map((p) => p.job_id).sort()).toEqual([...published].sort())
    const atOf = (p: Record<string, unknown>) => ((p.published_at ?? p.scheduled_for) as Date).toISOString()
    const kindOf = (p: Record<string, unknown>) => (published.has(p.job_id as string) ? "published" : "scheduled")
    const today = dayStart(0).toISOString().slice(0, 10)
    expect(r.body.from).toBe(from)
    expect(r.body.to).toBe(to)
    expect(r.body.days).toEqual([dayStart(-1), dayStart(0), dayStart(1)].map((d) => {
      const date = d.toISOString().slice(0, 10)
      const onDate = (done: boolean) =>
        stored.filter((p) => atOf(p).slice(0, 10) === date && (p.published_at !== null) === done)
      return { date, scheduled: onDate(false).length, published: onDate(true).length }
    }))
    expect(r.body.days.find((d: { date: string }) => d.date === today).published).toBe(2)
    expect(r.body.posts).toEqual(stored.map((p) => ({
      id: p.id,
      postGroupId: p.job_id,
      at: atOf(p),
      kind: kindOf(p),
      state: p.channel_id === channels.reviewed
        ? "AWAITING_APPROVAL"
        : kindOf(p) === "published"
        ? "PUBLISHED"
        : "SCHEDULED",
      channelId: p.channel_id,
      channelName: {
        [channels.shorts]: "Shorts",
        [channels.telegram]: "Telegram DE",
        [channels.reviewed]: "Reviewed"
      }[p.channel_id as string],
      platform: p.platform,
      title: p.title
    })))
    expect(r.body.channels.map((c: { name: string }) => c.name)).toEqual(["Reviewed", "Shorts", "Telegram DE"])
  })

  it("narrows to channelIds; ids that are not the workspace's match nothing", async () => {
    const window = `from=${dayStart(-1).toISOString()}&to=${dayStart(2).toISOString()}`
    const one =
      (await api.get(`/v1/calendar?${window}&channelIds=${channels.telegram},01JAAAAAAAAAAAAAAAAAAAAAAA`)).body
    expect(one.channels).toEqual([{ id: channels.telegram, name: "Telegram DE" }])
    expect(one.posts.map((p: { postGroupId: string }) => p.postGroupId))
      .toEqual([jobOf.get(channels.telegram), laterJobOf.get(channels.telegram)])
    const other = await workspaceWithKey(node, ["posts:read"], "Peeking")
    const peek = (await other.api.get(`/v1/calendar?${window}&channelIds=${channels.telegram}`)).body
    expect(peek.channels).toEqual([])
    expect(peek.posts).toEqual([])
    expect(peek.days.every((d: { scheduled: number }) => d.scheduled === 0)).toBe(true)
  })

  it("answers a 62-day window and refuses a longer one or one ending before it starts, naming `to`", async () => {
    const full = await api.get("/v1/calendar?from=2026-01-01T00:00:00Z&to=2026-03-04T00:00:00Z")
    expect(full.status, full.text).toBe(200)
    expect(full.body.days).toHaveLength(62)
    expect(full.body.days[0].date).toBe("2026-01-01")
    expect(full.body.days[61].date).toBe("2026-03-03")
    for (
      const window of [
        "from=2026-01-01T00:00:00Z&to=2026-03-04T00:00:01Z",
        "from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z"
      ]
    ) {
      const error = expectError(await api.get(`/v1/calendar?${window}`), 400, "schema_validation")
      expect(error.details.map((d) => d.path)).toEqual(["/to"])
    }
  })

  it("refuses a missing or malformed from, naming it", async () => {
    for (
      const window of [
        "to=2026-01-02T00:00:00Z",
        "from=yesterday&to=2026-01-02T00:00:00Z",
        "from=2026-01-01&to=2026-01-02T00:00:00Z"
      ]
    ) {
      const error = expectError(await api.get(`/v1/calendar?${window}`), 400, "schema_validation")
      expect(error.details.map((d) => d.path).join(" ")).toContain("from")
    }
  })
})
