import { describe, expect, it } from "vitest"
import { admin, client, workspaceWithKey } from "../support/Client.js"
import { useNode } from "../support/Rig.js"

const { node } = useNode({ label: "reserved" })

describe("routes no key may use", () => {
  it.each(["buy", "keep", "drop"])("POST /v1/renders/%s is 403 for every key, even *", async (action) => {
    const all = await workspaceWithKey(node, ["*"])
    const r = await all.api.post(`/v1/renders/${action}`, {})
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe("forbidden")
    expect(r.body.error.message).toMatch(/owner/)
    expect((await client(node).post(`/v1/renders/${action}`, {})).status).toBe(401)
  })

  it.each([
    ["POST", "/v1/broadcast"],
    ["POST", "/v1/broadcast/validate"],
    ["GET", "/v1/broadcast/01J00000000000000000000000"],
    ["GET", "/v1/broadcasts"]
  ])("%s %s refuses a workspace key with 403 naming ingest:shipped", async (method, path) => {
    const all = await workspaceWithKey(node, ["*"])
    const r = method === "GET" ? await all.api.get(path) : await all.api.post(path, {})
    expect(r.status).toBe(403)
    expect(r.body.error.message).toContain("ingest:shipped")
    const anonymous = method === "GET" ? await client(node).get(path) : await client(node).post(path, {})
    expect(anonymous.status).toBe(401)
  })

  it("a platform key is refused on workspace routes", async () => {
    const platform = await admin(node).post("/admin/platform-keys", { name: "feeds" })
    expect(platform.status).toBe(201)
    const r = await client(node, platform.body.apiKey).get("/v1/streams")
    expect(r.status).toBe(403)
  })
})
