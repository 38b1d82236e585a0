import { describe, expect, it } from "vitest"
import { content } from "../delivery/HandOverDesk.js"
import { admin, OWNER_EMAIL, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { INDEX_CLOSE, sendForLater, settledJobs } from "../support/Jobs.js"
import { startReceiver } from "../support/Receiver.js"
import { useNode } from "../support/Rig.js"
import { MARKET, newEventId } from "../support/Routes.js"

// `x-request-id` keys a request's state change so a retry is applied once. A client reusing one on another target
// (an approval, job or delivery held by the same entity as the first) must get that target changed.

const { db, node } = useNode({ label: "idempotency_targets", env: { ALLOW_PRIVATE_URLS: "true" } })

const scopes = [
  "streams:write",
  "channels:write",
  "brands:write",
  "ingest:write",
  "posts:write",
  "approvals:read",
  "approvals:write",
  "connections:read",
  "connections:write"
]

const setUp = async (name: string) => {
  const ws = await workspaceWithKey(node, scopes, name, OWNER_EMAIL)
  expect((await ws.api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const channel = async (body: Record<string, unknown>, input: Record<string, unknown>) => {
    const made = await ws.api.post("/v1/channels", body)
    expect(made.status, made.text).toBe(201)
    const sub = await ws.api.post(`/v1/channels/${made.body.channel.id}/subscriptions`, {
      ...input,
      templateVariant: "compact"
    })
    expect(sub.status, sub.text).toBe(201)
  }
  return { ...ws, channel }
}

const jobStatus = async (jobId: string) =>
  (await query<{ status: string }>(db.url, "SELECT status FROM jobs WHERE id = $1", [jobId]))[0]?.status

describe("one x-request-id on two targets of one entity", () => {
  it("approval A then approval B: B is decided too", async () => {
    const ws = await setUp("Approvals")
    const stream = (await ws.api.post("/v1/streams", { name: "Prices", templateId: MARKET })).body.stream
    await ws.channel({ name: "Reviewed", surface: "tiktok", approval: "PER_POST" }, {
      kind: "STREAM",
      streamId: stream.id
    })
    const send = async () => {
      const sent = await ws.api.post("/v1/stream", {
        streamId: stream.id,
        eventId: newEventId(),
        occurredAt: new Date().toISOString(),
        data: content
      })
      expect(sent.status, sent.text).toBe(202)
      return sent.body.matched[0].postGroupId as string
    }
    const jobs = [await send(), await send()]
    await settledJobs(db.url, "id = ANY($1)", [jobs])
    const listed = (await ws.api.get("/v1/approvals?state=PENDING")).body.approvals as Array<
      { id: string; postGroupId: string }
    >
    const [a, b] = jobs.map((job) => listed.find((approval) => approval.postGroupId === job)!)
    const requestId = newEventId()

    const first = await ws.api.post(`/v1/approvals/${a!.id}`, { state: "APPROVED" }, { "x-request-id": requestId })
    expect(first.status, first.text).toBe(200)
    expect(first.body.state).toBe("APPROVED")
    const second = await ws.api.post(`/v1/approvals/${b!.id}`, { state: "REJECTED" }, { "x-request-id": requestId })
    expect(second.status, second.text).toBe(200)
    expect(second.body).toMatchObject({ state: "REJECTED" })
    expect(await jobStatus(jobs[1]!)).toBe("REJECTED")
    const states = await query<{ id: string; state: string }>(
      db.url,
      "SELECT id, state FROM approvals WHERE id = ANY($1)",
      [[a!.id, b!.id]]
    )
    expect(Object.fromEntries(states.map((s) => [s.id, s.state]))).toEqual({ [a!.id]: "APPROVED", [b!.id]: "REJECTED" })
    // The same request again on A is still its retry: the stored answer, nothing decided twice.
    const retried = await ws.api.post(`/v1/approvals/${a!.id}`, { state: "APPROVED" }, { "x-request-id": requestId })
    expect(retried.body).toEqual(first.body)
  }, 240_000)

  it("cancel of job A then job B: B is cancelled too", async () => {
    const ws = await setUp("Cancels")
    await ws.channel({ name: "Shorts", surface: "youtube-shorts" }, INDEX_CLOSE)
    const jobs = [
      (await sendForLater(ws.api, content)).matched[0]!.postGroupId,
      (await sendForLater(ws.api, content)).matched[0]!.postGroupId
    ]
    const scheduled = await settledJobs<{ status: string }>(db.url, "id = ANY($1)", [jobs])
    expect(scheduled.map((job) => job.status)).toEqual(["SCHEDULED", "SCHEDULED"])
    const requestId = newEventId()
    const first = await ws.api.post(`/v1/jobs/${jobs[0]}/cancel`, undefined, { "x-request-id": requestId })
    expect(first.status, first.text).toBe(200)
    const second = await ws.api.post(`/v1/jobs/${jobs[1]}/cancel`, undefined, { "x-request-id": requestId })
    expect(second.status, second.text).toBe(200)
    expect(second.body).toMatchObject({ ok: true, cancelledPosts: 1 })
    expect(await jobStatus(jobs[0]!)).toBe("CANCELLED")
    expect(await jobStatus(jobs[1]!)).toBe("CANCELLED")
  }, 240_000)

  it("redelivery of delivery A then delivery B: B is sent again too", async () => {
    const receiver = await startReceiver()
    try {
      const ws = await setUp("Redeliveries")
      const hook = await admin(node).put(`/admin/workspaces/${ws.accountId}/webhook`, { url: receiver.url })
      expect(hook.status, hook.text).toBe(200)
      // Two dead deliveries of one hand-over owner, arranged in SQL (a receiver that stayed down until both died).
      const ids = [newEventId(), newEventId()]
      for (const id of ids) {
        await query(
          db.url,
          `INSERT INTO deliveries (id, workspace_id, owner, via, event, state, attempt, last_status_code, body, headers,
             recipients, created_at)
           VALUES ($1, $2, 'handover-5', 'webhook', 'post.publish', 'DEAD', 3, 500, $3, $4, '[]', now())`,
          [
            id,
            ws.accountId,
            Buffer.from(`{"type":"post.publish","data":{"posts":[]}}`),
            JSON.stringify({ "content-type": "application/json", "webhook-id": id })
          ]
        )
      }
      const requestId = newEventId()
      const first = await ws.api.post(`/v1/deliveries/${ids[0]}/redeliver`, undefined, { "x-request-id": requestId })
      expect(first.status, first.text).toBe(200)
      expect(first.body.delivery ?? first.body).toMatchObject({ id: ids[0], state: "DELIVERED" })
      const second = await ws.api.post(`/v1/deliveries/${ids[1]}/redeliver`, undefined, { "x-request-id": requestId })
      expect(second.status, second.text).toBe(200)
      expect(second.body.delivery ?? second.body).toMatchObject({ id: ids[1], state: "DELIVERED" })
      expect(receiver.calls.map((call) => call.headers["webhook-id"])).toEqual(ids)
    } finally {
      await receiver.stop()
    }
  }, 120_000)
})
