import { afterAll, describe, expect, it } from "vitest"
import { client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { compactExample, videoBody, waitForExport } from "../support/Exports.js"
import { marketStreamWithChannel, sendMarketEvent } from "../support/Jobs.js"
import { startNode, type TestNode } from "../support/Node.js"
import { useNode } from "../support/Rig.js"
import { eventually, until } from "../support/Until.js"

// The cluster is meant never to lose a render's Start or a job's news that its render ended; the sweeps are the net
// for a message lost anyway (src/renders/runner/OrphanRenders.ts, src/publishing/states/UnheardRenderEnds.ts). Here the
// loss is made by hand: node A has no render slots, so what it sends a render runner waits in storage, where the
// test marks it answered. A stand-in row in render_capacity lets A take work as if a renderer were in the cluster.
let nodeB: TestNode | undefined

const scopes = [
  "ingest:write",
  "streams:write",
  "channels:write",
  "brands:write",
  "renders:read",
  "renders:write",
  "templates:read"
]

const standInRenderer = () =>
  query(
    db.url,
    `INSERT INTO render_capacity (node_id, slots, heartbeat_at) VALUES ('stand-in', 1, now())
    ON CONFLICT (node_id) DO UPDATE SET heartbeat_at = now()`
  )

/** Marks every message to the render's runner answered, as if the cluster had lost it: nobody will draw it now. */
const loseRunnerMessages = async (renderJobId: string) => {
  await until(
    "the render's Start in storage",
    async () =>
      (await query(db.url, "SELECT 1 FROM cluster_messages WHERE entity_type = 'RenderRunner' AND entity_id = $1", [
        renderJobId
      ])).length > 0,
    30_000
  )
  await query(
    db.url,
    "UPDATE cluster_messages SET processed = true WHERE entity_type = 'RenderRunner' AND entity_id = $1",
    [renderJobId]
  )
}

const logsOf = () => nodeA.output() + (nodeB?.output() ?? "")

afterAll(async () => {
  await nodeB?.stop()
})

const { db, node: nodeA } = useNode({ label: "sweeps", env: { RENDER_SLOTS: "0" } })

describe("the sweeps under the cluster", () => {
  it("tell a job whose render ended without telling it, and the job moves on", async () => {
    const { api } = await workspaceWithKey(nodeA, scopes, "Unheard end")
    const streamId = await marketStreamWithChannel(api)
    await standInRenderer()
    const ingestEventId = await sendMarketEvent(api, streamId)
    const [job] = await eventually("the job waiting on its render", async () => {
      const rows = await query<{ id: string; render_job_id: string }>(
        db.url,
        "SELECT id, render_job_id FROM jobs WHERE ingest_event_id = $1 AND status = 'AWAITING_RENDERING'",
        [ingestEventId]
      )
      return rows.length > 0 ? rows : undefined
    }, 60_000)
    await loseRunnerMessages(job!.render_job_id)
    // The render ended a while ago (failed), and the job never heard.
    await query(
      db.url,
      `UPDATE render_jobs SET state = 'FAILED', error = 'the drawer crashed',
      finished_at = now() - interval '2 minutes' WHERE id = $1`,
      [job!.render_job_id]
    )

    const moved = await eventually("the job told", async () => {
      const [row] = await query<{ status: string; error: string | null }>(
        db.url,
        "SELECT status, error FROM jobs WHERE id = $1",
        [job!.id]
      )
      return row?.status === "AWAITING_RENDERING" ? undefined : row
    }, 90_000)
    expect(moved).toEqual({ status: "RENDER_FAILED", error: "the drawer crashed" })
    expect(logsOf()).toContain("A job had not heard that its render ended; told it again")
  }, 180_000)

  it("start again a render nobody draws, and it is drawn once a node with slots is there", async () => {
    const { api, apiKey } = await workspaceWithKey(nodeA, scopes, "Orphan render")
    await standInRenderer()
    const started = await api.post("/v1/direct-export/video", videoBody(await compactExample(api)))
    expect(started.status, started.text).toBe(202)
    const exportId = started.body.jobId as string
    await loseRunnerMessages(exportId)
    await query(db.url, "DELETE FROM render_capacity WHERE node_id = 'stand-in'")
    nodeB = await startNode({ databaseUrl: db.url, env: { RENDER_SLOTS: "1" } })

    const done = await waitForExport(client(nodeB, apiKey), exportId, 150_000)
    expect(done.status).toBe("succeeded")
    const [render] = await query<{ state: string; attempt: number }>(
      db.url,
      "SELECT state, attempt FROM render_jobs WHERE id = $1",
      [exportId]
    )
    expect(render).toEqual({ state: "COMPLETED", attempt: 1 })
    expect(logsOf()).toContain("A render had no runner to draw it; started it again")
  }, 240_000)
})
