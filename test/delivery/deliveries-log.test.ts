import { beforeAll, describe, expect, it } from "vitest"
import { client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { carry, insertDelivery, publishedPost } from "../support/DeliveryRows.js"
import { useNode } from "../support/Rig.js"
import { expectError, newEventId } from "../support/Routes.js"

// The hand-over writes deliveries; here they are arranged directly in SQL so the log can be read in every state
// without a receiver. Sending and redelivering for real is tested with the hand-over itself.

type Api = ReturnType<typeof client>

let api: Api
let accountId: string
let other: { api: Api; accountId: string }
const WEBHOOK_URL = "https://receiver.example/hooks/clipwright"
const posts = { shorts: "", telegram: "" }
const ids = { webhookDead: "", emailDelivered: "", emailDead: "", uncomposed: "", theirs: "" }
const FILLER = 205

const webhookBody = (postIds: Array<string>) =>
  `{"type":"post.publish","timestamp":"2026-03-01T09:00:00.000Z","data":{"accountId":"x","posts":[${
    postIds.map((id) => `{"id":"${id}"}`).join(",")
  }]}}`
const webhookHeaders = (id: string) => ({
  "content-type": "application/json",
  "webhook-id": id,
  "webhook-timestamp": "1772355600",
  "webhook-signature": "v1,c2lnbmF0dXJl"
})
/** An email whose text passes 64 KB, a two-byte character straddling the cut. */
const emailHead = "From: clipwright <no-reply@clipwright.test>\r\nTo: ops@example.com\r\nSubject: Copper slips\r\n\r\n"
const longEmail = emailHead + "A".repeat(65535 - emailHead.length) + "é and the rest of the message"

const sqlAt = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000)

const { db, node } = useNode({ label: "deliveries_log" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, [
    "connections:read",
    "connections:write",
    "posts:read",
    "brands:write",
    "channels:write"
  ], "Desk")
  api = ws.api
  accountId = ws.accountId
  const them = await workspaceWithKey(node, ["connections:read", "connections:write", "posts:read"], "Elsewhere")
  other = { api: them.api, accountId: them.accountId }

  expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const shorts = await api.post("/v1/channels", { name: "Shorts", surface: "youtube-shorts" })
  const telegram = await api.post("/v1/channels", { name: "Telegram DE", surface: "telegram", ratio: "1x1" })
  expect([shorts.status, telegram.status], shorts.text + telegram.text).toEqual([201, 201])
  await query(db.url, "UPDATE workspaces SET webhook_url = $1 WHERE id = $2", [WEBHOOK_URL, accountId])
  const eventId = newEventId()
  await query(
    db.url,
    `INSERT INTO ingest_events (id, workspace_id, event_id, body_hash, input, origin, details, status, occurred_at,
       data, request_id) VALUES ($1, $2, $3, 'h', 'stream', 'stream', 'Metals', 'ACCEPTED', now(), '{}', $1)`,
    [eventId, accountId, newEventId()]
  )
  posts.shorts = await publishedPost(db.url, accountId, eventId, shorts.body.channel.id, "youtube")
  posts.telegram = await publishedPost(db.url, accountId, eventId, telegram.body.channel.id, "telegram")

  // Old delivered calls carrying nothing, enough to pass the list's largest limit.
  await query(
    db.url,
    `INSERT INTO deliveries (id, workspace_id, owner, via, event, state, attempt, created_at)
     SELECT 'FILLER' || lpad(n::text, 20, '0'), $1, 'handover-0', 'webhook', 'post.publish', 'DELIVERED', 1,
       now() - interval '1 day' - n * interval '1 second'
     FROM generate_series(1, ${FILLER}) n`,
    [accountId]
  )

  ids.webhookDead = newEventId()
  await insertDelivery(db.url, {
    id: ids.webhookDead,
    workspaceId: accountId,
    via: "webhook",
    state: "DEAD",
    attempt: 4,
    createdAt: sqlAt(40),
    body: webhookBody([posts.telegram, posts.shorts]),
    headers: webhookHeaders(ids.webhookDead),
    lastStatusCode: 503,
    lastError: "HTTP 503"
  })
  await carry(db.url, ids.webhookDead, [posts.telegram, posts.shorts], "webhook")
  const attempt = "INSERT INTO delivery_attempts VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
  const started = sqlAt(40)
  await query(db.url, attempt, [ids.webhookDead, 1, false, started, 120, 500, "HTTP 500", "{\"error\":\"down\"}"])
  await query(db.url, attempt, [ids.webhookDead, 2, false, sqlAt(39), 15000, null, "no answer within 15 s", null])
  await query(db.url, attempt, [ids.webhookDead, 3, false, sqlAt(35), 80, 503, "HTTP 503", "busy"])
  await query(db.url, attempt, [ids.webhookDead, 4, true, sqlAt(20), 75, 503, "HTTP 503", "still busy"])

  ids.emailDelivered = newEventId()
  await insertDelivery(db.url, {
    id: ids.emailDelivered,
    workspaceId: accountId,
    via: "email",
    state: "DELIVERED",
    attempt: 1,
    createdAt: sqlAt(30),
    body: longEmail,
    recipients: ["owner@example.com", "ops@example.com"],
    lastStatusCode: 250,
    deliveredAt: sqlAt(29)
  })
  await carry(db.url, ids.emailDelivered, [posts.shorts, posts.telegram], "email")

  ids.emailDead = newEventId()
  await insertDelivery(db.url, {
    id: ids.emailDead,
    workspaceId: accountId,
    via: "email",
    state: "DEAD",
    attempt: 3,
    createdAt: sqlAt(10),
    body: emailHead + "Short message.",
    recipients: ["owner@example.com"],
    lastError: "connect ECONNREFUSED"
  })

  ids.uncomposed = newEventId()
  await insertDelivery(db.url, {
    id: ids.uncomposed,
    workspaceId: accountId,
    via: "email",
    state: "DELIVERED",
    attempt: 0,
    createdAt: sqlAt(5),
    body: null
  })

  ids.theirs = newEventId()
  await insertDelivery(db.url, {
    id: ids.theirs,
    workspaceId: other.accountId,
    via: "webhook",
    state: "DEAD",
    attempt: 3,
    createdAt: sqlAt(1),
    body: webhookBody([])
  })
}, 120_000)

const ROW_FIELDS = [
  "attempt",
  "channelName",
  "channelNames",
  "createdAt",
  "deliveredAt",
  "event",
  "id",
  "lastError",
  "lastStatusCode",
  "nextAttemptAt",
  "platform",
  "postId",
  "postIds",
  "state",
  "via"
]

describe("GET /v1/deliveries", () => {
  it("lists the newest 40 by default, newest first, each with the first post's channel and every post carried", async () => {
    const r = await api.get("/v1/deliveries")
    expect(r.status, r.text).toBe(200)
    const { deliveries } = r.body
    expect(deliveries).toHaveLength(40)
    expect(deliveries.slice(0, 4).map((d: { id: string }) => d.id)).toEqual([
      ids.uncomposed,
      ids.emailDead,
      ids.emailDelivered,
      ids.webhookDead
    ])
    const created = deliveries.map((d: { createdAt: string }) => Date.parse(d.createdAt))
    expect(created).toEqual([...created].sort((a, b) => b - a))
    for (const d of deliveries) expect(Object.keys(d).sort()).toEqual(ROW_FIELDS)
    expect(deliveries.map((d: { id: string }) => d.id)).not.toContain(ids.theirs)

    const stored = (await query(db.url, "SELECT created_at FROM deliveries WHERE id = $1", [ids.webhookDead]))[0]!
    expect(deliveries[3]).toEqual({
      id: ids.webhookDead,
      event: "post.publish",
      state: "DEAD",
      attempt: 4,
      nextAttemptAt: null,
      lastStatusCode: 503,
      lastError: "HTTP 503",
      deliveredAt: null,
      createdAt: (stored.created_at as Date).toISOString(),
      postId: posts.telegram,
      channelName: "Telegram DE",
      platform: "telegram",
      via: "webhook",
      postIds: [posts.telegram, posts.shorts],
      channelNames: ["Telegram DE", "Shorts"]
    })
    expect(deliveries[2]).toMatchObject({
      state: "DELIVERED",
      via: "email",
      postId: posts.shorts,
      channelName: "Shorts",
      platform: "youtube",
      lastStatusCode: 250,
      channelNames: ["Shorts", "Telegram DE"]
    })
    expect(Date.parse(deliveries[2].deliveredAt)).toBeGreaterThan(Date.parse(deliveries[2].createdAt))
    // A delivery carrying no post yet has no first post.
    expect(deliveries[1]).toMatchObject({
      postId: null,
      channelName: null,
      platform: null,
      postIds: [],
      channelNames: []
    })
  })

  it("takes limit from 1 to 200 and refuses anything else, naming limit", async () => {
    const one = await api.get("/v1/deliveries?limit=1")
    expect(one.body.deliveries.map((d: { id: string }) => d.id)).toEqual([ids.uncomposed])
    const most = await api.get("/v1/deliveries?limit=200")
    expect(most.status, most.text).toBe(200)
    expect(most.body.deliveries).toHaveLength(200)
    for (const limit of ["0", "201", "-3", "2.5", "x"]) {
      const error = expectError(await api.get(`/v1/deliveries?limit=${limit}`), 400, "schema_validation")
      expect(error.details.map((d) => d.path).join(" ")).toContain("limit")
    }
  })

  it("shows another workspace only its own deliveries", async () => {
    const theirs = await other.api.get("/v1/deliveries")
    expect(theirs.status, theirs.text).toBe(200)
    expect(theirs.body.deliveries.map((d: { id: string }) => d.id)).toEqual([ids.theirs])
  })
})

describe("GET /v1/deliveries/{id}", () => {
  it("answers a webhook delivery whole: address, signed headers, exact body and every attempt in order", async () => {
    const r = await api.get(`/v1/deliveries/${ids.webhookDead}`)
    expect(r.status, r.text).toBe(200)
    const { delivery } = r.body
    const row = (await api.get("/v1/deliveries")).body.deliveries.find((d: { id: string }) => d.id === ids.webhookDead)
    const { attempts, body, bodyBytes, bodyTruncated, headers, recipients, url, ...rest } = delivery
    expect(rest).toEqual(row)
    expect(url).toBe(WEBHOOK_URL)
    expect(recipients).toEqual([])
    expect(headers).toEqual(webhookHeaders(ids.webhookDead))
    expect(bodyBytes).toBe(webhookBody([posts.telegram, posts.shorts]))
    expect(body).toEqual(JSON.parse(bodyBytes))
    expect(bodyTruncated).toBe(false)
    const stored = await query(
      db.url,
      "SELECT started_at FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt",
      [ids.webhookDead]
    )
    expect(attempts).toEqual([
      {
        attempt: 1,
        redelivery: false,
        durationMs: 120,
        statusCode: 500,
        error: "HTTP 500",
        answer: "{\"error\":\"down\"}"
      },
      {
        attempt: 2,
        redelivery: false,
        durationMs: 15000,
        statusCode: null,
        error: "no answer within 15 s",
        answer: null
      },
      { attempt: 3, redelivery: false, durationMs: 80, statusCode: 503, error: "HTTP 503", answer: "busy" },
      { attempt: 4, redelivery: true, durationMs: 75, statusCode: 503, error: "HTTP 503", answer: "still busy" }
      // Recorded without the headers they went out with (as attempts from before the log kept them).
    ].map((a, i) => ({ ...a, headers: null, startedAt: (stored[i]!.started_at as Date).toISOString() })))
  })

  it("answers an email with its recipients and its text cut at 64 KB, never inside a character", async () => {
    const r = await api.get(`/v1/deliveries/${ids.emailDelivered}`)
    expect(r.status, r.text).toBe(200)
    const { delivery } = r.body
    expect(delivery).toMatchObject({
      via: "email",
      url: null,
      recipients: ["owner@example.com", "ops@example.com"],
      headers: {},
      bodyBytes: null,
      bodyTruncated: true,
      attempts: []
    })
    expect(delivery.body).toBe(longEmail.slice(0, 65535))
    expect(delivery.body.startsWith(emailHead)).toBe(true)

    const short = (await api.get(`/v1/deliveries/${ids.emailDead}`)).body.delivery
    expect(short).toMatchObject({
      body: emailHead + "Short message.",
      bodyTruncated: false,
      lastError: "connect ECONNREFUSED"
    })
    const uncomposed = (await api.get(`/v1/deliveries/${ids.uncomposed}`)).body.delivery
    expect(uncomposed).toMatchObject({ body: null, bodyBytes: null, bodyTruncated: false })
  })

  it("answers 404 for an unknown id and for another workspace's delivery", async () => {
    expectError(await api.get("/v1/deliveries/01JAAAAAAAAAAAAAAAAAAAAAAA"), 404, "not_found")
    expectError(await other.api.get(`/v1/deliveries/${ids.webhookDead}`), 404, "not_found")
    expectError(await api.get(`/v1/deliveries/${ids.theirs}`), 404, "not_found")
  })
})

describe("POST /v1/deliveries/{id}/redeliver", () => {
  it("refuses a delivered delivery with 409 invalid_state_transition, leaving it as it was", async () => {
    const before = (await api.get(`/v1/deliveries/${ids.emailDelivered}`)).body.delivery
    const error = expectError(
      await api.post(`/v1/deliveries/${ids.emailDelivered}/redeliver`),
      409,
      "invalid_state_transition"
    )
    expect(error.message).toContain("DELIVERED")
    expect((await api.get(`/v1/deliveries/${ids.emailDelivered}`)).body.delivery).toEqual(before)
  })

  it("answers 404 for an unknown id and for another workspace's delivery", async () => {
    expectError(await api.post("/v1/deliveries/01JAAAAAAAAAAAAAAAAAAAAAAA/redeliver"), 404, "not_found")
    expectError(await other.api.post(`/v1/deliveries/${ids.webhookDead}/redeliver`), 404, "not_found")
  })

  it("needs connections:write; connections:read lets a key read the log only", async () => {
    const reader = await workspaceWithKey(node, ["connections:read"], "Reader")
    expect((await reader.api.get("/v1/deliveries")).status).toBe(200)
    const error = expectError(await reader.api.post(`/v1/deliveries/${ids.theirs}/redeliver`), 403, "forbidden")
    expect(error.message).toContain("connections:write")
    const writer = await workspaceWithKey(node, ["posts:read"], "Poster")
    expectError(await writer.api.get("/v1/deliveries"), 403, "forbidden")
  })
})

describe("GET /v1/overview", () => {
  it("counts the workspace's dead deliveries in attention.deadDeliveries", async () => {
    const mine = await api.get("/v1/overview")
    expect(mine.status, mine.text).toBe(200)
    expect(mine.body.attention.deadDeliveries).toBe(2)
    expect((await other.api.get("/v1/overview")).body.attention.deadDeliveries).toBe(1)
    await query(db.url, "UPDATE deliveries SET state = 'DEAD' WHERE id = $1", [ids.uncomposed])
    expect((await api.get("/v1/overview")).body.attention.deadDeliveries).toBe(3)
  })
})
