import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { admin, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { compactExample, videoBody, waitForExport } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"

const { db, node } = useNode({ label: "expiry" })

describe("an export that is not kept", () => {
  it("says why, stays downloadable, and its file goes when the durable two-hour timer fires", async () => {
    const ws = await workspaceWithKey(node, ["renders:read", "renders:write", "templates:read"])
    // No storage at all: the clip is larger than the whole rendered-clips share, so it cannot be kept.
    expect((await admin(node).put(`/admin/workspaces/${ws.accountId}/limits`, { storageMb: 0 })).status).toBe(200)
    const started = await ws.api.post("/v1/direct-export/video", videoBody(await compactExample(ws.api)))
    const jobId = started.body.jobId as string
    const done = await waitForExport(ws.api, jobId)
    expect(done.status).toBe("succeeded")
    expect(done.kept).toBe(false)
    expect(done.keptNote).toMatch(/two hours/)

    const [clip] = await query<{ blob_key: string; finished: Date }>(
      db.url,
      `SELECT c.blob_key, e.finished_at AS finished FROM exports e JOIN clips c ON c.id = e.clip_id WHERE e.id = $1`,
      [jobId]
    )
    const file = path.join(node.dataDir, "blobs", clip!.blob_key)
    expect(fs.existsSync(file)).toBe(true)

    // The expiry is a persisted message due two hours after the video finished, so it survives restarts.
    const [timer] = await query<{ deliver_at: string }>(
      db.url,
      "SELECT deliver_at::text FROM cluster_messages WHERE entity_type = 'Export' AND entity_id = $1 AND tag = 'Expire'",
      [jobId]
    )
    expect(Number(timer!.deliver_at) - clip!.finished.getTime()).toBeGreaterThanOrEqual(2 * 3600 * 1000 - 1000)
    expect(Number(timer!.deliver_at) - clip!.finished.getTime()).toBeLessThanOrEqual(2 * 3600 * 1000 + 1000)

    // Move the clock forward for that one message: it is delivered on the next storage poll.
    await query(db.url, "UPDATE cluster_messages SET deliver_at = $1 WHERE entity_id = $2 AND tag = 'Expire'", [
      Date.now(),
      jobId
    ])
    const deadline = Date.now() + 15_000
    while (fs.existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200))
    expect(fs.existsSync(file)).toBe(false)
    const [row] = await query<{ stored: boolean }>(db.url, "SELECT stored FROM clips WHERE render_job_id = $1", [jobId])
    expect(row?.stored).toBe(false)
  }, 120_000)
})
