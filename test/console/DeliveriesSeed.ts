import { admin } from "../support/Client.js"
import { query } from "../support/Database.js"
import { carry, insertDelivery, publishedPost } from "../support/DeliveryRows.js"
import type { TestNode } from "../support/Node.js"
import { newEventId } from "../support/Routes.js"

/** What a hostile receiver answered and what a hostile title put in the body: shown on the page as text. */
export const HOSTILE_ANSWER = `</code></pre><script>alert("answer")</script><img src=x onerror=alert(1)>`
export const HOSTILE_TITLE = `<script>alert("title")</script>`
export const HOSTILE_ERROR = `HTTP 500 <b>bold</b>`
export const FILLER = 60

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000)

/**
 * A workspace's deliveries log arranged in SQL as the hand-over leaves it: FILLER old delivered calls, a dead webhook
 * call whose receiver answered markup (carrying a post of the channel "Telegram <DE>"), an email, a retrying delete,
 * and a dead delivery of another workspace.
 */
export const seedDeliveries = async (node: TestNode, dbUrl: string, owner: string, member: string) => {
  const a = admin(node)
  const desk = await a.workspace("Desk", owner)
  const elsewhere = await a.workspace("Elsewhere", "someone@elsewhere.test")
  const added = await a.post(`/admin/workspaces/${desk.accountId}/members`, { email: member, role: "member" })
  if (added.status !== 201) throw new Error(`member: ${added.status} ${added.text}`)
  const key = await a.key(desk.accountId, ["*"])
  const v1 = (path: string, body: unknown) =>
    fetch(`${node.url}/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    }).then((r) => r.json() as Promise<any>)
  await v1("/brands", { name: "House" })
  const shorts = (await v1("/channels", { name: "Shorts", surface: "youtube-shorts" })).channel.id as string
  const telegram = (await v1("/channels", { name: "Telegram <DE>", surface: "telegram", ratio: "1x1" })).channel
    .id as string
  await query(dbUrl, "UPDATE workspaces SET webhook_url = 'https://receiver.example/hooks' WHERE id = $1", [
    desk.accountId
  ])
  const eventId = newEventId()
  await query(
    dbUrl,
    `INSERT INTO ingest_events (id, workspace_id, event_id, body_hash, input, origin, details, status, occurred_at,
       data, request_id) VALUES ($1, $2, $3, 'h', 'stream', 'stream', 'Metals', 'ACCEPTED', now(), '{}', $1)`,
    [eventId, desk.accountId, newEventId()]
  )
  const shortsPost = await publishedPost(dbUrl, desk.accountId, eventId, shorts, "youtube")
  const telegramPost = await publishedPost(dbUrl, desk.accountId, eventId, telegram, "telegram")

  await query(
    dbUrl,
    `INSERT INTO deliveries (id, workspace_id, owner, via, event, state, attempt, last_status_code, delivered_at,
       created_at)
     SELECT 'FILLER' || lpad(n::text, 20, '0'), $1, 'handover-0', 'webhook', 'post.publish', 'DELIVERED', 1, 200,
       now() - interval '1 day' - n * interval '1 second', now() - interval '1 day' - n * interval '1 second'
     FROM generate_series(1, ${FILLER}) n`,
    [desk.accountId]
  )
  const dead = newEventId()
  await insertDelivery(dbUrl, {
    id: dead,
    workspaceId: desk.accountId,
    via: "webhook",
    state: "DEAD",
    attempt: 2,
    createdAt: minutesAgo(30),
    body: JSON.stringify({ type: "post.publish", data: { posts: [{ id: telegramPost, title: HOSTILE_TITLE }] } }),
    headers: { "content-type": "application/json", "webhook-id": dead, "webhook-signature": "v1,<sig>" },
    lastStatusCode: 500,
    lastError: HOSTILE_ERROR
  })
  await carry(dbUrl, dead, [telegramPost], "webhook")
  const attempt = "INSERT INTO delivery_attempts VALUES ($1, $2, false, $3, $4, $5, $6, $7, $8)"
  const signed = JSON.stringify({ "webhook-id": dead, "webhook-timestamp": "1772355600" })
  await query(dbUrl, attempt, [dead, 1, minutesAgo(30), 120, 500, HOSTILE_ERROR, HOSTILE_ANSWER, signed])
  await query(dbUrl, attempt, [dead, 2, minutesAgo(29), 80, 500, HOSTILE_ERROR, HOSTILE_ANSWER, signed])

  const email = newEventId()
  await insertDelivery(dbUrl, {
    id: email,
    workspaceId: desk.accountId,
    via: "email",
    state: "DELIVERED",
    attempt: 1,
    createdAt: minutesAgo(20),
    body: "From: clipwright <no-reply@clipwright.test>\r\nSubject: Copper slips\r\n\r\nCopper: down.",
    recipients: ["owner@example.com"],
    lastStatusCode: 250,
    deliveredAt: minutesAgo(20)
  })
  await carry(dbUrl, email, [shortsPost], "email")

  const retrying = newEventId()
  await query(
    dbUrl,
    `INSERT INTO deliveries (id, workspace_id, owner, via, event, state, attempt, last_status_code, last_error,
       next_attempt_at, body, created_at) VALUES ($1, $2, 'handover-3', 'webhook', 'post.delete', 'RETRYING', 1, 503,
       'HTTP 503', now() + interval '5 minutes', '{}', now() - interval '10 minutes')`,
    [retrying, desk.accountId]
  )

  const theirs = newEventId()
  await insertDelivery(dbUrl, {
    id: theirs,
    workspaceId: elsewhere.accountId,
    via: "webhook",
    state: "DEAD",
    attempt: 3,
    createdAt: minutesAgo(1),
    body: "{}"
  })
  return { workspaceId: desk.accountId, channels: { shorts, telegram }, ids: { dead, email, retrying, theirs } }
}
