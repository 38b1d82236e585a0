import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { client, workspaceWithKey } from "../support/Client.js"
import { createTestDatabase, query, type TestDatabase } from "../support/Database.js"
import { startNode, type TestNode } from "../support/Node.js"
import { MARKET, newEventId } from "../support/Routes.js"

let db: TestDatabase
let nodes: Array<TestNode> = []
const orphans: Array<number> = []
// Nodes of one cluster share DATA_DIR (a shared volume in production): a video stored by one is served by all.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-pipeline-kill-"))

beforeAll(async () => {
  db = await createTestDatabase("pipeline_kill")
  nodes = await Promise.all([0, 1, 2].map(() => startNode({ databaseUrl: db.url, dataDir })))
}, 90_000)

afterAll(async () => {
  // The dead node's drawer and ffmpeg lose their parent but not their lives.
  for (const pid of orphans) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // already gone
    }
  }
  await Promise.all(nodes.map((n) => n.stop()))
  await db?.drop()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const scopes = ["streams:write", "channels:write", "brands:write", "ingest:write", "allowance:read"]

const content = {
  clipData: { headline: "Gold climbs to a record", subline: "Bullion tops $2,400" },
  metaData: { title: "Gold at a record", captionLong: "Gold climbed to a record on Tuesday.", hashtags: ["gold"] },
  locales: { de: { metaData: { title: "Gold auf Rekordhoch" } } }
}

const childrenOf = (pid: number): Array<number> => {
  try {
    return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)]).toString().trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** A render is drawn in the node's own children: the drawer (`node … drawer… video`) and ffmpeg. */
const isDrawing = (pid: number) => {
  try {
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")
    return command.includes("ffmpeg") || command.includes("drawer")
  } catch {
    return false
  }
}

const poll = () => new Promise((r) => setTimeout(r, 50))

type Job = { id: string; channel_id: string; status: string; render_job_id: string | null; error: string | null }
type Render = { id: string; state: string; attempt: number; content_key: string }

const jobsOf = (ingestEventId: string) =>
  query<Job>(db.url, "SELECT id, channel_id, status, render_job_id, error FROM jobs WHERE ingest_event_id = $1", [ingestEventId])
const rendersOf = (workspaceId: string) =>
  query<Render>(db.url, "SELECT id, state, attempt, content_key FROM render_jobs WHERE workspace_id = $1", [workspaceId])

/** Waits for a node whose process is drawing one of the workspace's renders while its row says it draws. */
const drawingNode = async (workspaceId: string, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const renders = await rendersOf(workspaceId)
    if (renders.some((r) => ["SUBMITTED", "RENDERING"].includes(r.state))) {
      const node = nodes.find((n) => childrenOf(n.process.pid!).some(isDrawing))
      if (node !== undefined) return node
    }
    await poll()
  }
  throw new Error(`no node drew a render within ${timeoutMs} ms: ${JSON.stringify(await rendersOf(workspaceId))}`)
}

/** Waits until every job of the event has left the rendering stage; the message carries what stood at the deadline. */
const settled = async (ingestEventId: string, workspaceId: string, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const jobs = await jobsOf(ingestEventId)
    if (jobs.every((j) => !["ACCEPTED", "AWAITING_RENDERING"].includes(j.status))) return jobs
    if (Date.now() > deadline) {
      throw new Error(`jobs still rendering after ${timeoutMs} ms: ${JSON.stringify({ jobs, renders: await rendersOf(workspaceId) })}`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
}

describe("three nodes, the one drawing a pipeline render SIGKILLed", () => {
  it("the jobs finish on the survivors: each video rendered and counted once, one post per channel", async () => {
    const { api, accountId, apiKey } = await workspaceWithKey(nodes[0]!, scopes, "Pipeline kill")
    expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
    const stream = (await api.post("/v1/streams", { name: "Prices", templateId: MARKET })).body.stream
    // Two channels of different shape and language: two videos, two renders.
    for (const body of [{ name: "Shorts", surface: "youtube-shorts", locale: "en" }, { name: "Telegram DE", surface: "telegram", ratio: "1x1", locale: "de" }]) {
      const made = await api.post("/v1/channels", body)
      expect(made.status, made.text).toBe(201)
      const sub = await api.post(`/v1/channels/${made.body.channel.id}/subscriptions`, { kind: "STREAM", streamId: stream.id, templateVariant: "compact" })
      expect(sub.status, sub.text).toBe(201)
    }

    const sent = await api.post("/v1/stream", { streamId: stream.id, eventId: newEventId(), occurredAt: new Date().toISOString(), data: content })
    expect(sent.status, sent.text).toBe(202)
    expect(sent.body.matched).toHaveLength(2)

    const renderer = await drawingNode(accountId)
    orphans.push(...childrenOf(renderer.process.pid!))
    await renderer.kill()
    // The dead node writes nothing more: what is still open now was cut off (on it) or is drawing on a survivor.
    const cutOff = (await rendersOf(accountId)).filter((r) => ["PENDING", "SUBMITTED", "RENDERING", "DOWNLOADING", "STORED"].includes(r.state))
    expect(cutOff.length, "the kill came after every render had finished").toBeGreaterThan(0)

    const killedAt = Date.now()
    const jobs = await settled(sent.body.ingestEventId, accountId, 60_000)
    console.log(`pipeline under SIGKILL: ${cutOff.length} render(s) cut off, jobs settled ${Date.now() - killedAt} ms after the kill`)
    expect(jobs.map((j) => [j.status, j.error])).toEqual([["SCHEDULED", null], ["SCHEDULED", null]])

    const posts = await query<{ job_id: string; render_job_id: string }>(
      db.url, "SELECT job_id, render_job_id FROM posts WHERE job_id = ANY($1)", [jobs.map((j) => j.id)])
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
    expect(renders.filter((r) => r.state !== "COMPLETED").map((r) => r.state).filter((s) => !["FAILED", "TIMED_OUT"].includes(s))).toEqual([])
    // The cut-off render was drawn again on a survivor, not merely picked up as finished.
    expect(renders.some((r) => r.attempt >= 2), JSON.stringify(renders)).toBe(true)

    // Counted once per video against the allowance, whatever was redrawn.
    const quota = await client(nodes.find((n) => n !== renderer)!, apiKey).get("/v1/renders/quota")
    expect(quota.status, quota.text).toBe(200)
    expect(quota.body.quota.used).toBe(2)
  }, 90_000)
})
