import { describe, expect, it } from "vitest"
import { content as handOverContent } from "../delivery/HandOverDesk.js"
import { admin, client, OWNER_EMAIL, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { INDEX_CLOSE, sendForLater, settledJobs } from "../support/Jobs.js"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET, newEventId } from "../support/Routes.js"
import { readZip } from "../support/ZipRead.js"

const { db, node } = useNode({ label: "pipeline" })

const scopes = [
  "streams:write",
  "channels:write",
  "channels:read",
  "brands:write",
  "ingest:write",
  "received:read",
  "renders:read",
  "posts:read",
  "posts:write",
  "approvals:read",
  "approvals:write"
]

/**
 * A workspace with an owner (hand-over emails it, so due posts are published) and a stream. `channel` adds a channel
 * subscribed to the stream, whose posts are due once rendered; `laterChannel` one subscribed to the index-close feed,
 * whose posts `sendLater` schedules an hour ahead. Both render the compact variant (short renders).
 */
const setUp = async (name: string) => {
  const ws = await workspaceWithKey(node, scopes, name, OWNER_EMAIL)
  const api = client(node, ws.apiKey)
  await api.post("/v1/brands", { name: "House" })
  const stream = (await api.post("/v1/streams", { name: "Prices", templateId: MARKET })).body.stream
  const subscribed = (input: Record<string, unknown>) => async (body: Record<string, unknown>) => {
    const made = await api.post("/v1/channels", body)
    expect(made.status, made.text).toBe(201)
    const sub = await api.post(`/v1/channels/${made.body.channel.id}/subscriptions`, {
      ...input,
      templateVariant: "compact"
    })
    expect(sub.status, sub.text).toBe(201)
    return made.body.channel.id as string
  }
  const send = async (data: unknown = content) => {
    const sent = await api.post("/v1/stream", {
      streamId: stream.id,
      eventId: newEventId(),
      occurredAt: new Date().toISOString(),
      data
    })
    expect(sent.status, sent.text).toBe(202)
    return sent.body as { ingestEventId: string; matched: Array<{ postGroupId: string; channelId: string }> }
  }
  const channel = subscribed({ kind: "STREAM", streamId: stream.id })
  const laterChannel = subscribed(INDEX_CLOSE)
  const sendLater = (data: unknown = content) => sendForLater(api, data)
  return { ...ws, api, channel, send, laterChannel, sendLater }
}

/** The hand-over tests' event, with a German copy of its title and short caption. */
const content = {
  ...handOverContent,
  locales: { de: { metaData: { title: "Gold auf Rekordhoch", captionShort: "Gold: Rekord." } } }
}

const jobsOf = (ingestEventId: string) =>
  query(db.url, "SELECT * FROM jobs WHERE ingest_event_id = $1 ORDER BY created_at, id", [ingestEventId])

/** The event's jobs once they are rendered and, those due, handed over (hand-over moves due posts on at once). */
const settled = (ingestEventId: string) => settledJobs(db.url, "ingest_event_id = $1", [ingestEventId])

describe("from event to posts", () => {
  it("renders each distinct output once and writes one post per channel with its language's text", async () => {
    const { api, channel, ...ws } = await setUp("Pipeline")
    const stream = { id: (await api.get("/v1/stream")).body.streams[0].streamId as string }
    const shorts = await channel({ name: "Shorts", surface: "youtube-shorts", locale: "en" })
    const telegram = await channel({ name: "Telegram DE", surface: "telegram", ratio: "1x1", locale: "de" })
    const reviewed = await channel({ name: "Reviewed", surface: "tiktok", locale: "en", approval: "PER_POST" })

    const sent = await api.post("/v1/stream", {
      streamId: stream.id,
      eventId: newEventId(),
      occurredAt: new Date().toISOString(),
      data: content
    })
    expect(sent.status, sent.text).toBe(202)
    expect(sent.body.matched).toHaveLength(3)

    const jobs = await settled(sent.body.ingestEventId)
    const byChannel = new Map(jobs.map((j) => [j.channel_id as string, j]))
    // Due once rendered: handed over (into the owner's email) and published.
    expect(byChannel.get(shorts)!.status).toBe("PUBLISHED")
    expect(byChannel.get(telegram)!.status).toBe("PUBLISHED")
    expect(byChannel.get(reviewed)!.status).toBe("AWAITING_APPROVAL")
    // Shorts and TikTok are both 9x16 in English: one video serves both.
    expect(byChannel.get(shorts)!.render_job_id).toBe(byChannel.get(reviewed)!.render_job_id)
    expect(byChannel.get(shorts)!.render_job_id).not.toBe(byChannel.get(telegram)!.render_job_id)
    const renders = await query(db.url, "SELECT state FROM render_jobs WHERE workspace_id = $1", [ws.accountId])
    expect(renders.map((r) => r.state)).toEqual(["COMPLETED", "COMPLETED"])
    // The pipeline's renders are in the render job log, with where they came from.
    const log = await api.get("/v1/render-jobs")
    expect(log.body.jobs).toHaveLength(2)
    expect(log.body.jobs[0]).toMatchObject({
      origin: "custom",
      details: "Prices",
      postTitle: "Gold at a record",
      state: "COMPLETED"
    })
    const renderPackage = await api.get(`/v1/render-jobs/${byChannel.get(shorts)!.render_job_id}/package`)
    // One video for both 9x16 English channels: the package names the channel whose job asked first.
    expect(renderPackage.body.package).toMatchObject({ options: { outputs: [{ ratio: "9x16", locale: "en" }] } })
    expect([shorts, reviewed]).toContain(renderPackage.body.package.channel.id)

    const posts = await query(db.url, "SELECT * FROM posts WHERE job_id = ANY($1)", [jobs.map((j) => j.id)])
    const postOf = (channelId: string) => posts.find((p) => p.channel_id === channelId)!
    expect(postOf(shorts)).toMatchObject({
      platform: "youtube",
      ratio: "9x16",
      locale: "en",
      title: "Gold at a record",
      caption: content.metaData.captionLong,
      hashtags: ["gold", "markets"],
      state: "PUBLISHED",
      published_at: expect.any(Date)
    })
    expect(postOf(telegram)).toMatchObject({
      platform: "telegram",
      ratio: "1x1",
      locale: "de",
      title: "Gold auf Rekordhoch",
      caption: "Gold: Rekord.",
      state: "PUBLISHED",
      published_at: expect.any(Date)
    })
    expect(postOf(reviewed)).toMatchObject({
      platform: "tiktok",
      caption: content.metaData.captionMedium,
      state: "AWAITING_APPROVAL",
      published_at: null
    })
    const approvals = await query(db.url, "SELECT * FROM approvals WHERE job_id = $1", [byChannel.get(reviewed)!.id])
    expect(approvals.map((a) => a.state)).toEqual(["PENDING"])

    // The same content again (another event): served by the kept videos, nothing rendered anew.
    const again = await api.post("/v1/stream", {
      streamId: stream.id,
      eventId: newEventId(),
      occurredAt: new Date().toISOString(),
      data: content
    })
    const second = await settled(again.body.ingestEventId)
    expect(second.map((j) => j.status).sort()).toEqual(["AWAITING_APPROVAL", "PUBLISHED", "PUBLISHED"])
    expect(
      (await query(db.url, "SELECT count(*)::int AS n FROM render_jobs WHERE workspace_id = $1", [ws.accountId]))[0]!.n
    ).toBe(2)
  }, 240_000)
})

describe("approvals", () => {
  it(
    "lists the pending approval with its post; approving releases it, rejecting stops it, deciding twice is 409",
    async () => {
      const ws = await setUp("Approvals")
      await ws.channel({ name: "Reviewed", surface: "tiktok", approval: "PER_POST" })
      const first = await ws.send()
      const second = await ws.send({ ...content, clipData: { headline: "Silver slips" } })
      await settled(first.ingestEventId)
      await settled(second.ingestEventId)

      const listed = await ws.api.get("/v1/approvals?state=PENDING")
      expect(listed.status, listed.text).toBe(200)
      expect(listed.body).toMatchObject({
        total: 2,
        all: 2,
        page: 1,
        facets: { state: { PENDING: 2, APPROVED: 0, REJECTED: 0 } }
      })
      const approvalOf = (jobId: string) =>
        listed.body.approvals.find((a: { postGroupId: string }) => a.postGroupId === jobId)
      const approval = approvalOf(first.matched[0]!.postGroupId)
      expect(approval).toMatchObject({ state: "PENDING", channelName: "Reviewed", templateId: MARKET })
      expect(approval.posts).toEqual([
        expect.objectContaining({
          platform: "tiktok",
          ratio: "9x16",
          state: "AWAITING_APPROVAL",
          caption: content.metaData.captionMedium
        })
      ])
      const asset = approval.posts[0].assets[0]
      expect((await fetch(asset.url)).status).toBe(200)

      const approved = await ws.api.post(`/v1/approvals/${approval.id}`, {})
      expect(approved.status, approved.text).toBe(200)
      expect(approved.body).toMatchObject({
        postIds: [approval.posts[0].id],
        state: "APPROVED",
        decidedBy: expect.stringMatching(/^apikey:/)
      })
      // Released with its time come: handed over at once, and published.
      expect((await settled(first.ingestEventId))[0]!.status).toBe("PUBLISHED")
      const released = await query(db.url, "SELECT state, published_at FROM posts WHERE job_id = $1", [
        first.matched[0]!.postGroupId
      ])
      expect(released).toEqual([{ state: "PUBLISHED", published_at: expect.any(Date) }])
      expectError(
        await ws.api.post(`/v1/approvals/${approval.id}`, { state: "REJECTED" }),
        409,
        "invalid_state_transition"
      )

      const other = approvalOf(second.matched[0]!.postGroupId)
      const rejected = await ws.api.post(`/v1/approvals/${other.id}`, { state: "REJECTED", note: "Wrong figure" })
      expect(rejected.body.state).toBe("REJECTED")
      expect((await jobsOf(second.ingestEventId))[0]!.status).toBe("REJECTED")
      const posts = await query(db.url, "SELECT state FROM posts WHERE job_id = $1", [second.matched[0]!.postGroupId])
      expect(posts.map((p) => p.state)).toEqual(["REJECTED"])
      expectError(await ws.api.post("/v1/approvals/01JAAAAAAAAAAAAAAAAAAAAAAA", {}), 404, "not_found")
      expectError(await ws.api.post(`/v1/approvals/${other.id}`, { state: "MAYBE" }), 400, "schema_validation")
    },
    240_000
  )
})

describe("job actions and refusals", () => {
  it("cancel: a scheduled job's post is cancelled; a job with nothing left is 409", async () => {
    const ws = await setUp("Cancel")
    await ws.laterChannel({ name: "Shorts", surface: "youtube-shorts" })
    const sent = await ws.sendLater()
    expect((await settled(sent.ingestEventId))[0]!.status).toBe("SCHEDULED")
    const jobId = sent.matched[0]!.postGroupId
    const cancelled = await ws.api.post(`/v1/jobs/${jobId}/cancel`)
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.body).toEqual({ ok: true, cancelledPosts: 1, renderStopped: false })
    expect((await jobsOf(sent.ingestEventId))[0]!.status).toBe("CANCELLED")
    expectError(await ws.api.post(`/v1/jobs/${jobId}/cancel`), 409, "conflict")
    expectError(await ws.api.post("/v1/jobs/01JAAAAAAAAAAAAAAAAAAAAAAA/cancel"), 404, "not_found")

    // A published job has nothing left to cancel either.
    await ws.channel({ name: "Telegram", surface: "telegram", ratio: "1x1" })
    const now = await ws.send()
    const [published] = await settled(now.ingestEventId)
    expect(published!.status).toBe("PUBLISHED")
    expect(expectError(await ws.api.post(`/v1/jobs/${published!.id}/cancel`), 409, "conflict").message).toContain(
      "PUBLISHED"
    )
    expect((await jobsOf(now.ingestEventId))[0]!.status).toBe("PUBLISHED")
  }, 240_000)

  it(
    "update, delete and repost: bodies over the limits are refused naming the field; unpublished jobs are 409",
    async () => {
      const ws = await setUp("Edits")
      await ws.laterChannel({ name: "Shorts", surface: "youtube-shorts" })
      const sent = await ws.sendLater()
      expect((await settled(sent.ingestEventId))[0]!.status).toBe("SCHEDULED")
      const jobId = sent.matched[0]!.postGroupId
      const tooLong = await ws.api.post(`/v1/jobs/${jobId}/update`, {
        caption: "x".repeat(4001),
        hashtags: Array.from({ length: 61 }, (_, i) => `tag${i}`),
        title: "t".repeat(401)
      })
      expectError(tooLong, 400, "schema_validation")
      expect(tooLong.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
        "/caption",
        "/hashtags",
        "/title"
      ])
      const fits = { caption: "x".repeat(4000), hashtags: ["gold"], title: "Gold", link: { url: "" } }
      for (const [path, body] of [["update", fits], ["delete", undefined], ["repost", undefined]] as const) {
        const r = await ws.api.post(`/v1/jobs/${jobId}/${path}`, body)
        expect(expectError(r, 409, "conflict").message).toContain("published")
        expectError(await ws.api.post(`/v1/jobs/01JAAAAAAAAAAAAAAAAAAAAAAA/${path}`, body), 404, "not_found")
      }
    },
    240_000
  )

  it("deleting a channel cancels its jobs still to happen", async () => {
    const ws = await setUp("Channel deleted")
    const channelId = await ws.channel({ name: "Reviewed", surface: "tiktok", approval: "PER_POST" })
    const sent = await ws.send()
    await settled(sent.ingestEventId)
    const deleted = await ws.api.post(`/v1/channels/${channelId}/delete`)
    expect(deleted.status, deleted.text).toBe(200)
    expect(deleted.body.cancelled).toBe(1)
    expect((await jobsOf(sent.ingestEventId))[0]).toMatchObject({ status: "CANCELLED", error: "channel deleted" })
  }, 240_000)

  it("a job's package: its video and the post as JSON with times in tz; without a video, the reason", async () => {
    const ws = await setUp("Packages")
    await ws.channel({ name: "Shorts", surface: "youtube-shorts" })
    const sent = await ws.send()
    await settled(sent.ingestEventId)
    const jobId = sent.matched[0]!.postGroupId
    const zipOf = async (path: string) => {
      const r = await fetch(`${node.url}${path}`, { headers: { authorization: `Bearer ${ws.apiKey}` } })
      expect(r.status, path).toBe(200)
      expect(r.headers.get("content-type")).toBe("application/zip")
      expect(r.headers.get("content-disposition")).toMatch(/^attachment/)
      return readZip(Buffer.from(await r.arrayBuffer()))
    }
    const entries = await zipOf(`/v1/jobs/${jobId}/download?tz=Europe/Berlin`)
    const video = entries.find((e) => e.name.endsWith(".mp4"))!
    expect(video.data.subarray(4, 8).toString()).toBe("ftyp")
    const post = JSON.parse(entries.find((e) => e.name.endsWith(".json"))!.data.toString())
    expect(post).toMatchObject({
      postGroupId: jobId,
      state: "PUBLISHED",
      platform: "youtube",
      caption: content.metaData.captionLong,
      timeZone: "Europe/Berlin"
    })
    expect(post.scheduledFor).toMatch(/\+0[12]:00$/)
    expect(post.publishedAt).toMatch(/\+0[12]:00$/)
    const postId = post.id as string
    expect((await zipOf(`/v1/posts/${postId}/package`)).map((e) => e.name).sort()).toEqual(
      entries.map((e) => e.name).sort()
    )
    expectError(await ws.api.get(`/v1/jobs/${jobId}/download?tz=Mars/Olympus`), 400, "schema_validation")
    expectError(await ws.api.get("/v1/jobs/01JAAAAAAAAAAAAAAAAAAAAAAA/download"), 404, "not_found")

    expect((await admin(node).put(`/admin/workspaces/${ws.accountId}/limits`, { renderAllowance: 0 })).status).toBe(200)
    const failed = await ws.send({ ...content, clipData: { headline: "Never drawn" } })
    await settled(failed.ingestEventId)
    const names = (await zipOf(`/v1/jobs/${failed.matched[0]!.postGroupId}/download`)).map((e) => e.name)
    expect(names.find((n) => n.endsWith(".txt"))).toMatch(/^render failed/)
  }, 240_000)

  it("deleting a stream lets the events it already received finish", async () => {
    const ws = await setUp("Stream deleted")
    await ws.channel({ name: "Shorts", surface: "youtube-shorts" })
    const sent = await ws.send()
    const streamId = (await ws.api.get("/v1/stream")).body.streams[0].streamId as string
    expect((await ws.api.post(`/v1/streams/${streamId}/delete`)).status).toBe(200)
    const [job] = await settled(sent.ingestEventId)
    expect(job!.status).toBe("PUBLISHED")
  }, 240_000)

  it("an exhausted render allowance fails the job with the reason", async () => {
    const ws = await setUp("No allowance")
    await ws.channel({ name: "Shorts", surface: "youtube-shorts" })
    expect((await admin(node).put(`/admin/workspaces/${ws.accountId}/limits`, { renderAllowance: 0 })).status).toBe(200)
    const sent = await ws.send()
    const [job] = await settled(sent.ingestEventId)
    expect(job!.status).toBe("RENDER_FAILED")
    expect(String(job!.error)).toMatch(/allowance/i)
  }, 120_000)
})
