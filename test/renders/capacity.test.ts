import { afterAll, describe, expect, it } from "vitest"
import { admin, client, OWNER_EMAIL, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { compactExample, videoBody } from "../support/Exports.js"
import { startNode, type TestNode } from "../support/Node.js"
import { useNode } from "../support/Rig.js"
import { indexClose, MARKET, newEventId } from "../support/Routes.js"

let renderer: TestNode | undefined

// A node that offers no render slots: the cluster has no renderer at all.
const { db, node } = useNode({ label: "capacity", env: { RENDER_SLOTS: "0" } })

afterAll(async () => {
  await renderer?.stop()
})

describe("render capacity", () => {
  it("answers 503 upstream_unavailable with retryAfterSeconds when no renderer can take the work", async () => {
    const { accountId, api } = await workspaceWithKey(node, ["renders:write", "templates:read", "allowance:read"])
    const r = await api.post("/v1/direct-export/video", videoBody(await compactExample(api)))
    expect(r.status).toBe(503)
    expect(r.body.error.code).toBe("upstream_unavailable")
    expect(r.body.error.retryAfterSeconds).toBeGreaterThan(0)
    expect(r.body.error.type).toMatch(/\/errors\/upstream_unavailable$/)
    expect(await query(db.url, "SELECT id FROM render_jobs")).toEqual([])
    expect(await query(db.url, "SELECT * FROM allowance_reservations WHERE workspace_id = $1", [accountId])).toEqual([])
  })

  it("a pipeline job's render waits durably until a node with render slots joins, then finishes there", async () => {
    const ws = await workspaceWithKey(
      node,
      ["streams:write", "channels:write", "brands:write", "ingest:write"],
      "Waiting",
      OWNER_EMAIL
    )
    const posting = (await admin(node).key(ws.accountId, ["posts:write"])).apiKey
    await ws.api.post("/v1/brands", { name: "House" })
    const stream = (await ws.api.post("/v1/streams", { name: "Prices", templateId: MARKET })).body.stream
    const channel = (await ws.api.post("/v1/channels", { name: "Shorts" })).body.channel
    await ws.api.post(`/v1/channels/${channel.id}/subscriptions`, {
      kind: "STREAM",
      streamId: stream.id,
      templateVariant: "compact"
    })
    const sent = await ws.api.post("/v1/stream", {
      streamId: stream.id,
      eventId: newEventId(),
      occurredAt: new Date().toISOString(),
      data: indexClose
    })
    expect(sent.status, sent.text).toBe(202)
    const jobId = sent.body.matched[0].postGroupId as string
    const statusOf = async () =>
      (await query(
        db.url,
        `SELECT j.status, r.state, p.published_at FROM jobs j LEFT JOIN render_jobs r ON r.id = j.render_job_id
        LEFT JOIN posts p ON p.job_id = j.id WHERE j.id = $1`,
        [jobId]
      ))[0]!
    const until = async (done: (row: Record<string, unknown>) => boolean, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs
      let row = await statusOf()
      while (!done(row) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200))
        row = await statusOf()
      }
      return row
    }
    // Queued, not refused: the render is PENDING while no node draws.
    expect(await until((row) => row.status === "AWAITING_RENDERING", 20_000)).toMatchObject({
      status: "AWAITING_RENDERING",
      state: "PENDING"
    })
    const seen = await client(node, (await admin(node).key(ws.accountId, ["posts:read"])).apiKey).get(
      `/v1/pipeline/${jobId}`
    )
    expect(seen.body.job).toMatchObject({ state: "AWAITING_RENDERING", renderPosition: 1 })

    // A second event's job, cancelled while it waits: its render is stopped and its reservation goes back.
    const other = await ws.api.post("/v1/stream", {
      streamId: stream.id,
      eventId: newEventId(),
      occurredAt: new Date().toISOString(),
      data: { clipData: { ...indexClose.clipData, headline: "Cancelled before it was drawn" } }
    })
    const otherJob = other.body.matched[0].postGroupId as string
    const waiting = async () =>
      (await query(db.url, "SELECT status, render_job_id FROM jobs WHERE id = $1", [otherJob]))[0]!
    const deadline = Date.now() + 20_000
    while ((await waiting()).status !== "AWAITING_RENDERING" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200))
    }
    const cancelled = await client(node, posting).post(`/v1/jobs/${otherJob}/cancel`)
    expect(cancelled.body).toEqual({ ok: true, cancelledPosts: 0, renderStopped: true })
    const renderJobId = (await waiting()).render_job_id
    expect((await query(db.url, "SELECT state FROM render_jobs WHERE id = $1", [renderJobId]))[0]!.state).toBe(
      "CANCELLED"
    )
    const settled = Date.now() + 10_000
    let reservation = await query(db.url, "SELECT state FROM allowance_reservations WHERE render_job_id = $1", [
      renderJobId
    ])
    while (reservation[0]?.state === "reserved" && Date.now() < settled) {
      await new Promise((r) => setTimeout(r, 100))
      reservation = await query(db.url, "SELECT state FROM allowance_reservations WHERE render_job_id = $1", [
        renderJobId
      ])
    }
    expect(reservation.map((r) => r.state)).toEqual(["released"])
    renderer = await startNode({ databaseUrl: db.url, env: { RENDER_SLOTS: "1" } })
    // Rendered there, then due at once: handed over and published.
    const done = await until(
      (row) => !["AWAITING_RENDERING", "SCHEDULED", "PUBLISHING"].includes(row.status as string),
      90_000
    )
    expect(done).toMatchObject({ status: "PUBLISHED", state: "COMPLETED", published_at: expect.any(Date) })
    expect((await client(renderer).get("/health")).status).toBe(200)
  }, 150_000)
})
