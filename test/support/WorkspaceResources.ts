import { expect } from "vitest"
import { packageBody } from "../queues/QueueDesk.js"
import type { client } from "./Client.js"
import { query } from "./Database.js"
import { compactExample, videoBody, waitForExport } from "./Exports.js"
import { INDEX_CLOSE } from "./Jobs.js"
import { png } from "./MediaFiles.js"
import { MARKET, newEventId } from "./Routes.js"
import { upload } from "./Uploads.js"

type Api = ReturnType<typeof client>

/** One id of every kind of workspace record a `/v1` path can name, keyed by kind. */
export type ResourceIds = Record<string, string>

const created = async (answer: Promise<{ status: number; text: string; body: any }>, status = 201) => {
  const r = await answer
  expect(r.status, r.text).toBe(status)
  return r.body
}

/**
 * Builds one of each resource in a workspace: through the API where it is cheap, and pipeline records (event, job,
 * post, approval, delivery) seeded with SQL the way the pipeline leaves them, as producing them for real takes a render
 * and a hand-over.
 */
export const buildResources = async (
  nodeUrl: string,
  databaseUrl: string,
  workspace: { readonly accountId: string; readonly apiKey: string; readonly api: Api }
): Promise<ResourceIds> => {
  const { api, accountId } = workspace
  const stream = (await created(api.post("/v1/streams", { name: "Isolated", templateId: MARKET }))).stream
  const brand = (await created(api.post("/v1/brands", { name: "House" }))).brand
  const channel = (await created(api.post("/v1/channels", { name: "Shorts", surface: "youtube-shorts" }))).channel
  const subscription = (await created(api.post(`/v1/channels/${channel.id}/subscriptions`, INDEX_CLOSE))).channel
    .subscriptions[0]
  const media = (await created(upload(`${nodeUrl}/v1/media`, workspace.apiKey, { bytes: png(6, 6), name: "pic.png" })))
    .file
  const queue = (await created(api.post("/v1/queues", { name: "Morning" }))).queue
  const pkg = (await created(api.post(`/v1/queues/${queue.id}/packages`, packageBody()))).package

  const exported = await created(api.post("/v1/direct-export/video", videoBody(await compactExample(api))), 202)
  const finished = await waitForExport(api, exported.jobId)
  expect(finished.status, JSON.stringify(finished)).toBe("succeeded")
  const [clip] = await query(databaseUrl, "SELECT clip_id FROM exports WHERE id = $1", [exported.jobId])

  const eventId = newEventId()
  const jobId = newEventId()
  const postId = newEventId()
  const approvalId = newEventId()
  const deliveryId = newEventId()
  await query(
    databaseUrl,
    `INSERT INTO ingest_events (id, workspace_id, event_id, body_hash, input, origin, details, status, occurred_at,
       data, request_id) VALUES ($1, $2, $3, 'h', 'stream', 'stream', 'Metals', 'ACCEPTED', now(), '{}', $1)`,
    [eventId, accountId, newEventId()]
  )
  await query(
    databaseUrl,
    `INSERT INTO jobs (id, workspace_id, ingest_event_id, channel_id, subscription_id, origin, status, template_id,
       ratio, locale) VALUES ($1, $2, $3, $4, $5, 'stream', 'PUBLISHED', $6, '9x16', 'en')`,
    [jobId, accountId, eventId, channel.id, subscription.id, MARKET]
  )
  await query(
    databaseUrl,
    `INSERT INTO posts (id, workspace_id, job_id, channel_id, platform, surface, locale, ratio, state, title, caption,
       scheduled_for, published_at) VALUES ($1, $2, $3, $4, 'youtube', 'x', 'en', '9x16', 'PUBLISHED', 'Copper slips',
       'Copper: down.', now(), now())`,
    [postId, accountId, jobId, channel.id]
  )
  await query(
    databaseUrl,
    "INSERT INTO approvals (id, workspace_id, job_id, channel_id, state) VALUES ($1, $2, $3, $4, 'PENDING')",
    [approvalId, accountId, jobId, channel.id]
  )
  await query(
    databaseUrl,
    `INSERT INTO deliveries (id, workspace_id, owner, via, event, state, attempt, created_at)
     VALUES ($1, $2, 'handover-0', 'webhook', 'post.publish', 'DEAD', 1, now())`,
    [deliveryId, accountId]
  )
  await query(databaseUrl, "INSERT INTO delivery_posts VALUES ($1, $2, 0, 'webhook', 'post.publish')", [
    deliveryId,
    postId
  ])

  return {
    stream: stream.id,
    channel: channel.id,
    subscription: subscription.id,
    brand: brand.id,
    media: media.id,
    queue: queue.id,
    package: pkg.id,
    export: exported.jobId,
    clip: clip!.clip_id as string,
    event: eventId,
    job: jobId,
    post: postId,
    approval: approvalId,
    delivery: deliveryId
  }
}

/** An id of the same shape as `id` that names nothing: its prefix kept, every letter and digit after it `0`. */
export const missingLike = (id: string) => {
  const cut = id.lastIndexOf("_") + 1
  return id.slice(0, cut) + id.slice(cut).replace(/[A-Za-z0-9]/g, "0")
}
