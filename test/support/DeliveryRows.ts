import { query } from "./Database.js"
import { MARKET, newEventId } from "./Routes.js"

/** Deliveries and published posts arranged directly in SQL, as the hand-over would leave them, to read the log. */

export const insertDelivery = (dbUrl: string, d: {
  id: string
  workspaceId: string
  via: "webhook" | "email"
  state: string
  attempt: number
  createdAt: Date
  body: string | null
  headers?: Record<string, string>
  recipients?: Array<string>
  lastStatusCode?: number | null
  lastError?: string | null
  deliveredAt?: Date | null
}) =>
  query(
    dbUrl,
    `INSERT INTO deliveries (id, workspace_id, owner, via, event, state, attempt, last_status_code, last_error,
       delivered_at, body, headers, recipients, created_at)
     VALUES ($1, $2, 'handover-3', $3, 'post.publish', $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      d.id,
      d.workspaceId,
      d.via,
      d.state,
      d.attempt,
      d.lastStatusCode ?? null,
      d.lastError ?? null,
      d.deliveredAt ?? null,
      d.body === null ? null : Buffer.from(d.body, "utf8"),
      JSON.stringify(d.headers ?? {}),
      JSON.stringify(d.recipients ?? []),
      d.createdAt
    ]
  )

export const carry = (dbUrl: string, deliveryId: string, postIds: Array<string>, via: string) =>
  Promise.all(
    postIds.map((postId, position) =>
      query(dbUrl, "INSERT INTO delivery_posts VALUES ($1, $2, $3, $4, 'post.publish')", [
        deliveryId,
        postId,
        position,
        via
      ])
    )
  )

/** A published job and its post on a channel, as the pipeline leaves them. */
export const publishedPost = async (
  dbUrl: string,
  workspaceId: string,
  ingestEventId: string,
  channelId: string,
  platform: string
) => {
  const jobId = newEventId()
  const postId = newEventId()
  await query(
    dbUrl,
    `INSERT INTO jobs (id, workspace_id, ingest_event_id, channel_id, subscription_id, origin, status, template_id,
       ratio, locale) VALUES ($1, $2, $3, $4, 'sub', 'stream', 'PUBLISHED', $5, '9x16', 'en')`,
    [jobId, workspaceId, ingestEventId, channelId, MARKET]
  )
  await query(
    dbUrl,
    `INSERT INTO posts (id, workspace_id, job_id, channel_id, platform, surface, locale, ratio, state, title, caption,
       scheduled_for, published_at) VALUES ($1, $2, $3, $4, $5, 'x', 'en', '9x16', 'PUBLISHED', 'Copper slips',
       'Copper: down.', now(), now())`,
    [postId, workspaceId, jobId, channelId, platform]
  )
  return postId
}
