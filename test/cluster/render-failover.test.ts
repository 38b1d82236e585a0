import * as fs from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { client, workspaceWithKey } from "../support/Client.js"
import { childrenOf, startCluster, type TestCluster } from "../support/Cluster.js"
import { query } from "../support/Database.js"
import { MARKET, videoBody, waitForExport } from "../support/Exports.js"
import type { TestNode } from "../support/Node.js"

let cluster: TestCluster

beforeAll(async () => {
  cluster = await startCluster("render_failover", { nodes: 2, sharedDataDir: true, env: { RENDER_SLOTS: "1" } })
})

afterAll(() => cluster?.stop())

const isFfmpeg = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("ffmpeg")
  } catch {
    return false
  }
}

describe("a render on a node that dies", () => {
  it("is finished by the other node and counted once", async () => {
    const [a] = cluster.nodes as [TestNode, TestNode]
    const { api, apiKey } = await workspaceWithKey(a, ["renders:read", "renders:write", "templates:read"])
    // The standard build draws 10 s, which leaves time to kill the node while it draws.
    const standard = (await api.get(`/v1/formats/template/${MARKET}?variant=standard&version=1.1.0`)).body.example
    const started = await api.post(
      "/v1/direct-export/video",
      videoBody(standard, { variant: "standard", version: "1.1.0", ratio: "9x16" })
    )
    expect(started.status).toBe(202)
    const jobId = started.body.jobId as string

    // Wait until some node is drawing it: the drawer and ffmpeg are that node's children.
    let renderer: TestNode | undefined
    const deadline = Date.now() + 30_000
    while (renderer === undefined && Date.now() < deadline) {
      const [job] = await query<{ state: string }>(cluster.db.url, "SELECT state FROM render_jobs WHERE id = $1", [
        jobId
      ])
      if (job?.state === "RENDERING") renderer = cluster.nodes.find((n) => childrenOf(n.process.pid!).some(isFfmpeg))
      if (renderer === undefined) await new Promise((r) => setTimeout(r, 100))
    }
    expect(renderer).toBeDefined()
    await cluster.kill(renderer!)
    const survivor = cluster.nodes.find((n) => n !== renderer)!
    const done = await waitForExport(client(survivor, apiKey), jobId, 120_000)
    expect(done.status).toBe("succeeded")
    const [job] = await query<{ state: string; attempt: number }>(
      cluster.db.url,
      "SELECT state, attempt FROM render_jobs WHERE id = $1",
      [jobId]
    )
    expect(job?.state).toBe("COMPLETED")
    expect(job?.attempt).toBeGreaterThanOrEqual(2)
    // The allowance is settled by its own message, sent with the export's: it may land a moment after the export.
    const reservationsOf = () =>
      query(cluster.db.url, "SELECT state, videos FROM allowance_reservations WHERE render_job_id = $1", [jobId])
    const settleBy = Date.now() + 10_000
    let reservations = await reservationsOf()
    while (reservations[0]?.state === "reserved" && Date.now() < settleBy) {
      await new Promise((r) => setTimeout(r, 100))
      reservations = await reservationsOf()
    }
    expect(reservations).toEqual([{ state: "committed", videos: 1 }])
    const clips = await query(cluster.db.url, "SELECT id FROM clips WHERE render_job_id = $1", [jobId])
    expect(clips).toHaveLength(1)
  }, 180_000)
})
