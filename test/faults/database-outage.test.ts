import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PrivatePostgres, startPrivatePostgres } from "../../bench/support/PrivatePostgres.js"
import { workspaceWithKey } from "../support/Client.js"
import { compactExample, videoBody, waitForExport } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"
import { MARKET, newEventId } from "../support/Routes.js"
import { until } from "../support/Until.js"

let pg: PrivatePostgres

beforeAll(async () => {
  // A server of this file's own: stopping it must not touch the one the other test files share.
  pg = await startPrivatePostgres()
})

afterAll(async () => {
  await pg?.stop()
})

const { node } = useNode({ label: "database_outage", adminUrl: () => pg.adminUrl })

const event = (streamId: string, eventId = newEventId()) => ({
  streamId,
  eventId,
  occurredAt: new Date().toISOString(),
  data: { clipData: { headline: "Zinc holds", subline: "Zinc at $2,700" } }
})

/** A workspace with a stream and a channel listening to it. */
const listening = async (name: string) => {
  const ws = await workspaceWithKey(node, ["*"], name)
  expect((await ws.api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const stream = await ws.api.post("/v1/streams", { name: "Metals", templateId: MARKET })
  expect(stream.status, stream.text).toBe(201)
  const channel = await ws.api.post("/v1/channels", { name: "Shorts", surface: "youtube-shorts", deliverByEmail: true })
  expect(channel.status, channel.text).toBe(201)
  const streamId = stream.body.stream.id as string
  expect(
    (await ws.api.post(`/v1/channels/${channel.body.channel.id}/subscriptions`, {
      kind: "STREAM",
      streamId,
      templateVariant: "compact"
    })).status
  ).toBe(201)
  return { ws, streamId }
}

/** What a node logs when a handler meets the outage: the wait (with the retries) or an entity restart (without). */
const MET = /The database is unavailable; the handler|Defect in entity/

const ON_THEIR_WAY = new Set(["ACCEPTED", "AWAITING_RENDERING", "RENDERING", "DOWNLOADING"])

describe("PostgreSQL down for a moment", () => {
  // Found by `npm run faults` (PostgreSQL restart): stream sends and reads answered 500 `internal` while the database
  // was down; a database outage is the service's to wait out, so the caller is told to retry.
  it(
    "requests answer 503 upstream_unavailable with a retry hint, never 500; once it is back the same send is taken",
    async () => {
      const { streamId, ws } = await listening("Outage")
      const data = await compactExample(ws.api)

      pg.down()
      try {
        const sent = event(streamId)
        for (
          const answer of [
            await ws.api.post("/v1/stream", sent),
            await ws.api.get("/v1/channels"),
            await ws.api.get("/v1/jobs")
          ]
        ) {
          expect(answer.status, answer.text).toBe(503)
          expect(answer.body.error.code).toBe("upstream_unavailable")
          expect(answer.body.error.retryAfterSeconds).toBeGreaterThan(0)
          expect(answer.headers.get("retry-after")).not.toBeNull()
        }
        // Down past the window in which a node's render slots count (15 s): each node must advertise them again.
        await new Promise((resolve) => setTimeout(resolve, 16_000))
        pg.up()
        const taken = await retried(() => ws.api.post("/v1/stream", sent))
        expect(taken.status, taken.text).toBe(202)
        expect(taken.body.matched).toHaveLength(1)
        const exported = await retried(() => ws.api.post("/v1/direct-export/video", videoBody(data)))
        expect(exported.status, exported.text).toBe(202)
      } finally {
        pg.up()
      }
    },
    120_000
  )

  // Found by the fault matrix in CI: after a PostgreSQL restart twelve jobs stayed ACCEPTED for good, and renders
  // drawing at the time were restarted every 10 s without end. A handler meeting the outage died, which restarts its
  // entity in @effect/cluster, and a second fault during that restart was dropped with its message.
  it(
    "work under way when it goes down (a render drawing, a job starting) waits for it and finishes, with no entity restarted",
    async () => {
      const { streamId, ws } = await listening("In flight")
      const logBefore = node.output().length
      const met = () => node.output().slice(logBefore)
      const data = await compactExample(ws.api)
      const sent = await ws.api.post("/v1/stream", event(streamId))
      expect(sent.status, sent.text).toBe(202)
      // Down while an export is part drawn, until a handler meets the outage (the render's end at the latest). On a busy
      // machine the work can slip past a short outage; then another export is tried, at most three.
      const exports: Array<string> = []
      for (let tries = 0; tries < 3 && !MET.test(met()); tries++) {
        const started = await retried(() => ws.api.post("/v1/direct-export/video", videoBody(data)))
        expect(started.status, started.text).toBe(202)
        exports.push(started.body.jobId)
        await until("the export part drawn", async () => {
          const poll = await ws.api.get(`/v1/direct-export/video/${started.body.jobId}`)
          return poll.status === 200 &&
            (poll.body.status !== "rendering" || (poll.body.progress > 0 && poll.body.progress < 0.7))
        }, 60_000)
        pg.down()
        try {
          await until("work meeting the outage", () => MET.test(met()), 20_000).catch(() => undefined)
        } finally {
          pg.up()
        }
      }
      expect(MET.test(met()), `no work met any of three outages:\n${met().slice(-3000)}`).toBe(true)

      for (const id of exports) expect((await waitForExport(ws.api, id, 90_000)).status).toBe("succeeded")
      let jobs: Array<{ id: string; status: string; error: string | null }> = []
      await until("the event's job past rendering", async () => {
        const listed = await ws.api.get("/v1/jobs")
        jobs = listed.status === 200 ? listed.body.jobs : []
        return jobs.length === 1 && !ON_THEIR_WAY.has(jobs[0]!.status)
      }, 90_000)
      expect(jobs[0]!.status, JSON.stringify(jobs[0])).not.toBe("RENDER_FAILED")
      const log = met()
      expect(log).not.toContain("Defect in entity, restarting")
      expect(log).toContain("The database is unavailable; the handler runs again once it is back")
    },
    360_000
  )
})

/** The pool reconnects on the next request; a request racing the reconnect may still be told to retry. */
const retried = async <A extends { status: number }>(send: () => Promise<A>): Promise<A> => {
  for (let i = 0;; i++) {
    const answer = await send()
    if (answer.status !== 503 || i === 20) return answer
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}
