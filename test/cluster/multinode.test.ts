import { describe, expect, it } from "vitest"
import { admin, client } from "../support/Client.js"
import { query } from "../support/Database.js"
import type { TestNode } from "../support/Node.js"
import { useNodes } from "../support/Rig.js"

const { db, nodes: [a, b] } = useNodes({ label: "multinode", count: 2 })

const streamsSeenBy = async (node: TestNode, key: string) =>
  (await client(node, key).get("/v1/streams")).body.streams.map((s: { id: string }) => s.id).sort()

describe("two nodes on one database", () => {
  it("share streams, and the survivor of a SIGKILL updates every stream within 30 s", async () => {
    const workspace = await admin(a).workspace("Cluster")
    const { apiKey } = await admin(b).key(workspace.accountId, ["streams:read", "streams:write"])
    const ids: Array<string> = []
    for (let i = 0; i < 12; i++) {
      const via = i % 2 === 0 ? a : b
      const r = await client(via, apiKey).post("/v1/streams", { name: `S${i}`, templateId: "tpl_3a7c91e04b5d" })
      expect(r.status).toBe(201)
      ids.push(r.body.stream.id)
    }
    ids.sort()
    expect(await streamsSeenBy(a, apiKey)).toEqual(ids)
    expect(await streamsSeenBy(b, apiKey)).toEqual(ids)

    // Both runners host shards, so some of these streams' entities live on the node about to die.
    const runners = await query<{ n: number }>(db.url, "SELECT count(*)::int AS n FROM cluster_runners")
    expect(runners[0]?.n).toBe(2)

    await b.kill()
    const started = Date.now()
    const pending = new Set(ids)
    while (pending.size > 0 && Date.now() - started < 30_000) {
      await Promise.all([...pending].map(async (id) => {
        const r = await client(a, apiKey).post(`/v1/streams/${id}/update`, { name: `after-${id}` }).catch(() =>
          undefined
        )
        if (r?.status === 200) pending.delete(id)
      }))
      if (pending.size > 0) await new Promise((r) => setTimeout(r, 250))
    }
    expect([...pending]).toEqual([])
    const failoverMs = Date.now() - started
    console.log(`failover: every stream updated through the survivor ${failoverMs} ms after SIGKILL`)
    expect(failoverMs).toBeLessThan(30_000)
    const rows = await query<{ id: string; name: string }>(db.url, "SELECT id, name FROM streams ORDER BY id")
    expect(rows.map((r) => r.id)).toEqual(ids)
    expect(rows.every((r) => r.name === `after-${r.id}`)).toBe(true)
  })
})
