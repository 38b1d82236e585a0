import { describe, expect, it } from "vitest"
import { admin, client, OWNER_EMAIL, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { INDEX_CLOSE, sendForLater, settledJobs } from "../support/Jobs.js"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET, newEventId } from "../support/Routes.js"
import { MB } from "../support/Storage.js"

const { db, node } = useNode({ label: "pipeline_clips" })

const scopes = [
  "streams:write",
  "channels:write",
  "channels:read",
  "brands:write",
  "ingest:write",
  "renders:read",
  "posts:read",
  "media:read",
  "media:write",
  "allowance:read"
]

interface ListedClip {
  readonly id: string
  readonly byteSize: number
  readonly channelName: string | null
  readonly needed: boolean
  readonly neededBecause: string | null
}

/**
 * A workspace with an owner (hand-over emails it) where each channel listens to a stream of its own, so each event
 * renders one video for one job (the compact variant: short renders). `send` answers the event's job once it is
 * rendered and, if due, handed over. `laterChannel` is the one channel listening to the index-close feed, whose posts
 * `sendLater` schedules an hour ahead: they stay SCHEDULED.
 */
const setUp = async (name: string) => {
  const ws = await workspaceWithKey(node, scopes, name, OWNER_EMAIL)
  const api = client(node, ws.apiKey)
  await api.post("/v1/brands", { name: "House" })
  const subscribe = async (body: Record<string, unknown>, input: Record<string, unknown>) => {
    const made = await api.post("/v1/channels", body)
    expect(made.status, made.text).toBe(201)
    const sub = await api.post(`/v1/channels/${made.body.channel.id}/subscriptions`, {
      ...input,
      templateVariant: "compact"
    })
    expect(sub.status, sub.text).toBe(201)
  }
  const channel = async (body: Record<string, unknown>) => {
    const stream =
      (await api.post("/v1/streams", { name: `${String(body["name"])} feed`, templateId: MARKET })).body.stream
    await subscribe(body, { kind: "STREAM", streamId: stream.id })
    return stream.id as string
  }
  const laterChannel = (body: Record<string, unknown>) => subscribe(body, INDEX_CLOSE)
  const dataOf = (headline: string) => ({ ...content, clipData: { headline, subline: "Bullion tops $2,400" } })
  const send = async (streamId: string, headline: string) => {
    const sent = await api.post("/v1/stream", {
      streamId,
      eventId: newEventId(),
      occurredAt: new Date().toISOString(),
      data: dataOf(headline)
    })
    expect(sent.status, sent.text).toBe(202)
    expect(sent.body.matched).toHaveLength(1)
    return settled(sent.body.matched[0].postGroupId as string)
  }
  const sendLater = async (headline: string) => {
    const sent = await sendForLater(api, dataOf(headline))
    expect(sent.matched).toHaveLength(1)
    return settled(sent.matched[0]!.postGroupId)
  }
  const clips = async (): Promise<Array<ListedClip>> => {
    const listed = await api.get("/v1/media/renders")
    expect(listed.status, listed.text).toBe(200)
    return listed.body.clips
  }
  const postOf = async (jobId: string) => {
    const posts = await api.get("/v1/posts")
    expect(posts.status, posts.text).toBe(200)
    return posts.body.posts.find((p: { postGroupId: string }) => p.postGroupId === jobId)
  }
  return { ...ws, api, channel, send, laterChannel, sendLater, clips, postOf }
}

const content = {
  clipData: { headline: "Gold climbs to a record", subline: "Bullion tops $2,400" },
  metaData: { title: "Gold at a record", captionShort: "Gold: record.", hashtags: ["gold"] }
}

/** The job once rendered and, if due, handed over (polled; the render takes about two seconds), with its clip. */
const settled = async (jobId: string) => {
  const [job] = await settledJobs(db.url, "id = $1", [jobId])
  const [clip] = await query(db.url, "SELECT id, kept, stored FROM clips WHERE render_job_id = $1", [
    job!.render_job_id
  ])
  return { id: jobId, status: job!.status as string, clipId: clip?.id as string }
}

const jobStatus = async (jobId: string) =>
  (await query(db.url, "SELECT status FROM jobs WHERE id = $1", [jobId]))[0]!.status

describe("pipeline clips in the media library", () => {
  it("a finished render is kept and counted; a scheduled post's clip is needed and its delete refused", async () => {
    const ws = await setUp("Kept clips")
    await ws.laterChannel({ name: "Shorts", surface: "youtube-shorts" })
    const job = await ws.sendLater("Gold climbs to a record")
    expect(job.status).toBe("SCHEDULED")

    const [clip, ...others] = await ws.clips()
    expect(others).toEqual([])
    const post = await ws.postOf(job.id)
    expect(clip).toMatchObject({
      id: job.clipId,
      channelName: "Shorts",
      needed: true,
      neededBecause: `post ${post.id} on Shorts is scheduled`
    })
    const quota = await ws.api.get("/v1/renders/quota")
    expect(quota.status, quota.text).toBe(200)
    expect(quota.body.storage.usedBy).toEqual({ media: 0, renders: clip!.byteSize })

    const refused = expectError(await ws.api.post(`/v1/media/renders/${clip!.id}/delete`, {}), 409, "conflict")
    expect(refused.message).toContain(`post ${post.id} on Shorts is scheduled`)
    expect((await ws.clips()).map((c) => c.id)).toEqual([clip!.id])
    expect(await ws.postOf(job.id)).toMatchObject({ state: "SCHEDULED", clipStored: true })
  }, 240_000)

  it(
    "a clip awaiting approval is not needed: deleting it cancels the job, and the post remains without its video",
    async () => {
      const ws = await setUp("Reviewed clips")
      const reviewed = await ws.channel({ name: "Reviewed", surface: "tiktok", approval: "PER_POST" })
      const job = await ws.send(reviewed, "Silver slips")
      expect(job.status).toBe("AWAITING_APPROVAL")
      expect(await ws.clips()).toMatchObject([{
        id: job.clipId,
        channelName: "Reviewed",
        needed: false,
        neededBecause: null
      }])

      const deleted = await ws.api.post(`/v1/media/renders/${job.clipId}/delete`, {})
      expect(deleted.status, deleted.text).toBe(200)
      expect(deleted.body).toEqual({ deleted: true })
      expect(await jobStatus(job.id)).toBe("CANCELLED")
      expect(await ws.clips()).toEqual([])
      expect(await ws.postOf(job.id)).toMatchObject({ state: "CANCELLED", clipStored: false, assets: [] })
      const jobs = await ws.api.get("/v1/jobs")
      expect(jobs.body.jobs.find((j: { id: string }) => j.id === job.id)).toMatchObject({
        status: "CANCELLED",
        clip: null
      })
      // Deleting again: the record remains, its bytes are gone.
      expectError(await ws.api.post(`/v1/media/renders/${job.clipId}/delete`, {}), 404, "not_found")
    },
    240_000
  )

  it("room is made by removing the oldest clip no post relies on, never a needed one", async () => {
    const ws = await setUp("Tight clips")
    await ws.laterChannel({ name: "Shorts", surface: "youtube-shorts" })
    const reviewed = await ws.channel({ name: "Reviewed", surface: "tiktok", approval: "PER_POST" })
    const needed = await ws.sendLater("Gold climbs to a record")
    const spare = await ws.send(reviewed, "Gold slips from a record")
    expect([needed.status, spare.status]).toEqual(["SCHEDULED", "AWAITING_APPROVAL"])
    const sizes = new Map((await ws.clips()).map((c) => [c.id, c.byteSize]))
    const [neededBytes, spareBytes] = [sizes.get(needed.clipId)!, sizes.get(spare.clipId)!]

    // A clips share that holds both and half a clip more: a third clip makes room by removing one. The needed clip
    // is the oldest, so oldest-first alone would remove it.
    const shareBytes = neededBytes + spareBytes + Math.max(neededBytes, spareBytes) / 2
    const storageMb = Math.ceil(shareBytes / (0.8 * MB))
    const mediaSharePercent = 100 - Math.ceil((shareBytes / (storageMb * MB)) * 100)
    expect((await ws.api.post("/v1/storage/split", { mediaSharePercent })).status).toBe(200)
    const limits = await admin(node).put(`/admin/workspaces/${ws.accountId}/limits`, { storageMb })
    expect(limits.status, limits.text).toBe(200)
    expect((await ws.clips()).map((c) => c.id).sort()).toEqual([needed.clipId, spare.clipId].sort())

    const third = await ws.send(reviewed, "Gold holds near a record")
    const listed = await ws.clips()
    expect(listed.map((c) => c.id)).toEqual([third.clipId, needed.clipId])
    const quota = await ws.api.get("/v1/renders/quota")
    expect(quota.body.storage.usedBy.renders).toBe(neededBytes + listed[0]!.byteSize)
    expect(quota.body.storage.usedBy.renders).toBeLessThanOrEqual(quota.body.storage.clips.maxBytes)

    // The removed clip's post remains, without its video; the needed one's still has it.
    expect(await ws.postOf(spare.id)).toMatchObject({ state: "AWAITING_APPROVAL", clipStored: false, assets: [] })
    expect(await ws.postOf(needed.id)).toMatchObject({ state: "SCHEDULED", clipStored: true })
    expectError(await ws.api.get(`/v1/assets/${spare.clipId}`), 404, "not_found")
  }, 300_000)

  it("a smaller storage limit removes the clips no post relies on first, even when a needed one is older", async () => {
    const ws = await setUp("Shrunk")
    await ws.laterChannel({ name: "Shorts", surface: "youtube-shorts" })
    const reviewed = await ws.channel({ name: "Reviewed", surface: "tiktok", approval: "PER_POST" })
    const needed = await ws.sendLater("Gold climbs to a record")
    const spare = await ws.send(reviewed, "Gold slips from a record")
    expect([needed.status, spare.status]).toEqual(["SCHEDULED", "AWAITING_APPROVAL"])
    // 1 MB in all, 10 % of it for clips: room for one of the two clips. The needed one is older, so oldest-first
    // alone would remove it.
    expect((await ws.api.post("/v1/storage/split", { mediaSharePercent: 90 })).status).toBe(200)
    expect((await admin(node).put(`/admin/workspaces/${ws.accountId}/limits`, { storageMb: 1 })).status).toBe(200)
    const bytes = await query(db.url, "SELECT sum(byte_size)::int AS n FROM clips WHERE id = ANY($1)", [[
      needed.clipId,
      spare.clipId
    ]])
    expect(Number(bytes[0]!.n)).toBeGreaterThan(0.1 * MB)
    expect((await ws.clips()).map((c) => c.id)).toEqual([needed.clipId])
    expect(await ws.postOf(needed.id)).toMatchObject({ state: "SCHEDULED", clipStored: true })
    expect(await ws.postOf(spare.id)).toMatchObject({ clipStored: false })
  }, 300_000)
})
