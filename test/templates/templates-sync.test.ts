import { beforeAll, describe, expect, it } from "vitest"
import { client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"

let api: ReturnType<typeof client>
let accountId: string

interface View {
  templateId: string
  offered: boolean
  descriptorSha: string
  syncedAt: string
}
const views = async (c = api) => (await c.get("/v1/templates")).body.templates as Array<View>
const mirrored = async (workspaceId: string) =>
  query<{ template_id: string }>(db.url, "SELECT template_id FROM template_syncs WHERE workspace_id = $1", [
    workspaceId
  ])

const { db, node } = useNode({ label: "templates_sync" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, ["templates:read", "templates:write"])
  api = ws.api
  accountId = ws.accountId
})

describe("POST /v1/templates/sync", () => {
  it("first sync: nothing differs from the registry release, syncedAt follows the sync", async () => {
    const before = await views()
    const ids = before.map((v) => v.templateId)
    expect(new Set(before.map((v) => v.syncedAt)).size).toBe(1)
    const r = await api.post("/v1/templates/sync")
    expect(r.status, r.text).toBe(200)
    expect(r.body).toEqual({ syncedAt: expect.any(String), added: [], changed: [], withdrawn: [], unchanged: ids })
    expect(Date.parse(r.body.syncedAt)).toBeGreaterThan(Date.parse(before[0]!.syncedAt))
    const after = await views()
    expect(after.map((v) => v.syncedAt)).toEqual(ids.map(() => r.body.syncedAt))
    expect(after.map((v) => v.descriptorSha)).toEqual(before.map((v) => v.descriptorSha))
    expect(r.headers.get("deprecation")).toBeNull()
  })

  it("answers what was added, changed and withdrawn since the last sync, and the list follows it", async () => {
    const [first, second] = (await views()).map((v) => v.templateId)
    // The mirror as an older registry left it: one template unknown then, one with another build, one retired since.
    await query(db.url, "DELETE FROM template_syncs WHERE workspace_id = $1 AND template_id = $2", [accountId, first])
    await query(
      db.url,
      "UPDATE template_syncs SET descriptor_sha = 'old', offered = false WHERE workspace_id = $1 AND template_id = $2",
      [accountId, second]
    )
    await query(
      db.url,
      "INSERT INTO template_syncs (workspace_id, template_id, descriptor_sha, offered, synced_at) " +
        "VALUES ($1, 'tpl_retired', 'gone', true, now())",
      [accountId]
    )
    const stale = (await views()).find((v) => v.templateId === second)!
    expect(stale).toMatchObject({ descriptorSha: "old", offered: false })
    const r = await api.post("/v1/templates/sync")
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ added: [first], changed: [second], withdrawn: ["tpl_retired"] })
    const now = (await views()).find((v) => v.templateId === second)!
    expect(now.descriptorSha).not.toBe("old")
    expect(now.offered).toBe(true)
    expect(now.syncedAt).toBe(r.body.syncedAt)
    expect((await mirrored(accountId)).map((row) => row.template_id)).not.toContain("tpl_retired")
    const again = await api.post("/v1/templates/sync")
    expect(again.body).toMatchObject({ added: [], changed: [], withdrawn: [] })
  })

  it("mirrors into the caller's workspace only", async () => {
    const other = await workspaceWithKey(node, ["templates:read", "templates:write"])
    expect(await mirrored(other.accountId)).toEqual([])
    const synced = (await api.get("/v1/templates")).body.templates[0].syncedAt
    expect((await views(other.api))[0]!.syncedAt).not.toBe(synced)
  })

  it("needs templates:write: 403 naming it, and stores nothing", async () => {
    const reader = await workspaceWithKey(node, ["templates:read"])
    const r = await reader.api.post("/v1/templates/sync")
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe("forbidden")
    expect(r.body.error.message).toContain("templates:write")
    expect(await mirrored(reader.accountId)).toEqual([])
    expect((await client(node).post("/v1/templates/sync")).status).toBe(401)
  })
})
