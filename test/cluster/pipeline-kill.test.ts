import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { client, OWNER_EMAIL, workspaceWithKey } from "../support/Client.js"
import { childrenOf, isDrawing, startCluster, type TestCluster } from "../support/Cluster.js"
import { query } from "../support/Database.js"
import { settledJobs } from "../support/Jobs.js"
import { MARKET, newEventId } from "../support/Routes.js"
import { eventually } from "../support/Until.js"

let cluster: TestCluster

beforeAll(async () => {
  cluster = await startCluster("pipeline_kill", { nodes: 3, sharedDataDir: true })
}, 90_000)

afterAll(() => cluster?.stop())

const scopes = ["streams:write", "channels:write", "brands:write", "ingest:write", "allowance:read"]

const content = {
  clipData: { headline: "Gold climbs to a record", subline: "Bullion tops $2,400" },
  metaData: { title: "Gold at a record", captionLong: "Gold climbed to a record on Tuesday.", hashtags: ["gold"] },
  locales: { de: { metaData: { title: "Gold auf Rekordhoch" } } }
}

const poll = () => new Promise((r) => setTimeout(r, 50))

type Job = { id: string; channel_id: string; status: string; render_job_id: string | null; error: string | null }
type Render = { id: string; state: string; attempt: number; content_key: string }

const rendersOf = (workspaceId: string) =>
  query<Render>(cluster.db.url, "SELECT id, state, attempt, content_key FROM render_jobs WHERE workspace_id = $1", [
    workspaceId
  ])

/** Waits for a node whose process is drawing one of the workspace's renders while its row says it draws. */
const drawingNode = async (workspaceId: string, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const renders = await rendersOf(workspaceId)
    if (renders.some((r) => ["SUBMITTED", "RENDERING"].includes(r.state))) {
      const node = cluster.nodes.find((n) => childrenOf(n.process.pid!).some(isDrawing))
      if (node !== undefined) return node
    }
    await poll()
  }
  throw new Error(`no node drew a render within ${timeoutMs} ms: ${JSON.stringify(await rendersOf(workspaceId))}`)
}

/** Waits until every job of the event is rendered and handed over; the message carries the renders at the deadline. */
const settled = async (ingestEventId: string, workspaceId: string, timeoutMs: number) => {
  try {
    return await settledJobs<Job>(cluster.db.url, "ingest_event_id = $1", [ingestEventId], timeoutMs)
  } catch (error) {
    throw new Error(`${String(error)}; renders: ${JSON.stringify(await rendersOf(workspaceId))}`)
  }
}

describe("three nodes, the one drawing a pipeline render SIGKILLed", () => {
  it(
    "the jobs finish on the survivors: each video rendered and counted once, one post per channel, published",
    async () => {
      const { api, accountId, apiKey } = await workspaceWithKey(cluster.nodes[0]!, scopes, "Pipeline kill", OWNER_EMAIL)
      expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
      const stream = (await api.post("/v1/streams", { name: "Prices", templateId: MARKET })).body.stream
      // Two channels of different shape and language: two videos, two renders.
      for (
        const body of [{ name: "Shorts", surface: "youtube-shorts", locale: "en" }, {
          name: "Telegram DE",
          surface: "telegram",
          ratio: "1x1",
          locale: "de"
        }]
      ) {
        const made = await api.post("/v1/channels", body)
        expect(made.status, made.text).toBe(201)
        const sub = await api.post(`/v1/channels/${made.body.channel.id}/subscriptions`, {
          kind: "STREAM",
          streamId: stream.id,
          templateVariant: "compact"
        })
        expect(sub.status, sub.text).toBe(201)
      }

      const sent = await api.post("/v1/stream", {
        streamId: stream.id,
        eventId: newEventId(),
        occurredAt: new Date().toISOString(),
        data: content
      })
      expect(sent.status, sent.text).toBe(202)
      expect(sent.body.matched).toHaveLength(2)

      const renderer = await drawingNode(accountId)
      await cluster.kill(renderer)
      // The dead node writes nothing more: what is still open now was cut off (on it) or is drawing on a survivor.
      const cutOff = (await rendersOf(accountId)).filter((r) =>
        ["PENDING", "SUBMITTED", "RENDERING", "DOWNLOADING", "STORED"].includes(r.state)
      )
      expect(cutOff.length, "the kill came after every render had finished").toBeGreaterThan(0)

      const killedAt = Date.now()
      const jobs = await settled(sent.body.ingestEventId, accountId, 60_000)
      console.log(
        `pipeline under SIGKILL: ${cutOff.length} render(s) cut off, jobs published ${
          Date.now() - killedAt
        } ms after the kill`
      )
      // Due once rendered: the survivors hand them over too.
      expect(jobs.map((j) => [j.status, j.error])).toEqual([["PUBLISHED", null], ["PUBLISHED", null]])

      const posts = await query<{ job_id: string; render_job_id: string }>(
        cluster.db.url,
        "SELECT job_id, render_job_id FROM posts WHERE job_id = ANY($1)",
        [jobs.map((j) => j.id)]
      )
      expect(posts.map((p) => p.job_id).sort()).toEqual(jobs.map((j) => j.id).sort())

      const renders = await rendersOf(accountId)
      const byId = new Map(renders.map((r) => [r.id, r]))
      const used = jobs.map((j) => byId.get(j.render_job_id!))
      expect(used.map((r) => r?.state)).toEqual(["COMPLETED", "COMPLETED"])
      expect(new Set(used.map((r) => r!.id)).size).toBe(2)
      expect(posts.every((p) => p.render_job_id === jobs.find((j) => j.id === p.job_id)!.render_job_id)).toBe(true)
      // One finished render per video; any other row of the same video is an attempt that failed.
      const completed = renders.filter((r) => r.state === "COMPLETED")
      expect(completed.map((r) => r.content_key).sort()).toEqual(used.map((r) => r!.content_key).sort())
      expect(
        renders.filter((r) => r.state !== "COMPLETED").map((r) => r.state).filter((s) =>
          !["FAILED", "TIMED_OUT"].includes(s)
        )
      ).toEqual([])
      // The cut-off render was drawn again on a survivor, not merely picked up as finished.
      expect(renders.some((r) => r.attempt >= 2), JSON.stringify(renders)).toBe(true)

      // Counted once per video against the allowance, whatever was redrawn. A finished render settles its reservation
      // by a message of its own, which waits for the allowance's shard when the dead node held it: soon, not at once.
      const survivor = client(cluster.nodes.find((n) => n !== renderer)!, apiKey)
      const counted = await eventually("both videos counted", async () => {
        const quota = await survivor.get("/v1/renders/quota")
        expect(quota.status, quota.text).toBe(200)
        return quota.body.quota.used >= 2 ? quota.body.quota.used as number : undefined
      }, 30_000)
      expect(counted).toBe(2)
    },
    90_000
  )
})
