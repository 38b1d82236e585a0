import { describe, expect, it } from "vitest"
import { admin, client } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNodes } from "../support/Rig.js"

const { db, nodes: [a, b] } = useNodes({ label: "channels_multinode", count: 2 })

describe("channels on two nodes over one database", () => {
  it("serve and change through either node, and the survivor of a SIGKILL changes every channel", async () => {
    const workspace = await admin(a).workspace("Channels cluster")
    const { apiKey } = await admin(b).key(workspace.accountId, ["channels:read", "channels:write", "brands:write"])
    expect((await client(a, apiKey).post("/v1/brands", { name: "House" })).status).toBe(201)
    const ids: Array<string> = []
    for (let i = 0; i < 10; i++) {
      const [via, other] = i % 2 === 0 ? [a, b] : [b, a]
      const created = await client(via, apiKey).post("/v1/channels", { name: `C${i}` })
      expect(created.status, created.text).toBe(201)
      const id = created.body.channel.id
      ids.push(id)
      const changed = await client(other, apiKey).patch(`/v1/channels/${id}`, { approval: "PER_POST" })
      expect(changed.status, changed.text).toBe(200)
      expect(changed.body.channel).toMatchObject({ id, name: `C${i}`, approval: "PER_POST" })
    }
    for (const node of [a, b]) {
      const seen = (await client(node, apiKey).get("/v1/channels")).body.channels.map((c: { id: string }) => c.id)
      expect(seen.sort()).toEqual([...ids].sort())
    }

    await b.kill()
    const started = Date.now()
    const pending = new Set(ids)
    while (pending.size > 0 && Date.now() - started < 30_000) {
      await Promise.all([...pending].map(async (id) => {
        const r = await client(a, apiKey).patch(`/v1/channels/${id}`, { name: `after-${id}` }).catch(() => undefined)
        if (r?.status === 200) pending.delete(id)
      }))
      if (pending.size > 0) await new Promise((r) => setTimeout(r, 250))
    }
    expect([...pending]).toEqual([])
    const rows = await query<{ id: string; name: string }>(db.url, "SELECT id, name FROM channels ORDER BY id")
    expect(rows.map((r) => r.id)).toEqual([...ids].sort())
    expect(rows.every((r) => r.name === `after-${r.id}`)).toBe(true)
  })
})
