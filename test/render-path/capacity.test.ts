import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { createTestDatabase, query, type TestDatabase } from "../support/Database.js"
import { compactExample, videoBody } from "../support/Exports.js"
import { startNode, type TestNode } from "../support/Node.js"

let db: TestDatabase
let node: TestNode

beforeAll(async () => {
  db = await createTestDatabase("capacity")
  // A node that offers no render slots: the cluster has no renderer at all.
  node = await startNode({ databaseUrl: db.url, env: { RENDER_SLOTS: "0" } })
})

afterAll(async () => {
  await node?.stop()
  await db?.drop()
})

describe("render capacity", () => {
  it("answers 503 upstream_unavailable with retryAfterSeconds when no renderer can take the work", async () => {
    const { accountId, api } = await workspaceWithKey(node, ["renders:write", "templates:read", "allowance:read"])
    const r = await api.post("/v1/direct-export/video", videoBody(await compactExample(api)))
    expect(r.status).toBe(503)
    expect(r.body.error.code).toBe("upstream_unavailable")
    expect(r.body.error.retryAfterSeconds).toBeGreaterThan(0)
    expect(r.body.error.type).toMatch(/\/errors\/upstream_unavailable$/)
    expect(await query(db.url, "SELECT id FROM render_jobs")).toEqual([])
    expect(await query(db.url, "SELECT * FROM allowance_reservations WHERE workspace_id = $1", [accountId])).toEqual([])
  })
})
