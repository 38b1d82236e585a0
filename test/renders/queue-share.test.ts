import { beforeAll, describe, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { compactExample, videoBody } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"

beforeAll(async () => {
  // One render slot: a workspace's queue is full at 20 waiting videos.
})

const { db, node } = useNode({ label: "queue_share", env: () => ({ RENDER_SLOTS: "1" }) })

describe("the render queue's cap is per workspace", () => {
  it(
    "refuses A's flood to A (503, retryAfterSeconds from A's own queue) while B's export is taken and drawn next",
    async () => {
      const scopes = ["renders:write", "renders:read", "templates:read"]
      const a = await workspaceWithKey(node, scopes, "Flooding")
      const b = await workspaceWithKey(node, scopes, "Neighbour")
      const example = await compactExample(a.api)

      let refused:
        | { status: number; body: { error: { code: string; message: string; retryAfterSeconds?: number } } }
        | undefined
      let accepted = 0
      for (let i = 0; i < 45 && refused === undefined; i++) {
        const r = await a.api.post("/v1/direct-export/video", videoBody(example))
        if (r.status === 202) accepted++
        else refused = r
      }
      expect(refused?.status).toBe(503)
      expect(refused?.body.error.code).toBe("upstream_unavailable")
      expect(refused?.body.error.message).toMatch(/this workspace's queue is full: \d+ of its videos wait/)
      expect(refused?.body.error.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect(accepted).toBeGreaterThanOrEqual(20)
      // Nothing stored for the refused one: A's renders are the ones it was answered 202 for.
      const rows = await query(db.url, "SELECT count(*)::int AS n FROM render_jobs WHERE workspace_id = $1", [
        a.accountId
      ])
      expect(rows[0]!.n).toBe(accepted)

      // B's one video is taken, and nothing of A's long line is ahead of it (A holds the one slot).
      const started = await b.api.post("/v1/direct-export/video", videoBody(example))
      expect(started.status, started.text).toBe(202)
      const polled = await b.api.get(`/v1/direct-export/video/${started.body.jobId}`)
      expect(polled.body.ahead).toBe(0)
      // A is still refused while its own queue is full.
      const again = await a.api.post("/v1/direct-export/video", videoBody(example))
      expect(again.status).toBe(503)
    },
    120_000
  )
})
