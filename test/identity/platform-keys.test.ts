import { describe, expect, it } from "vitest"
import { admin, client } from "../support/Client.js"
import type { TestNode } from "../support/Node.js"
import { useNodes } from "../support/Rig.js"
import { expectError, ULID } from "../support/Routes.js"

// Two nodes on one database: a key revoked through one is refused by the other at once, though the other had it
// cached as valid a moment before.
const { nodes: [a, b] } = useNodes({ label: "platform_keys", count: 2 })

const broadcasts = (node: TestNode, key: string) => client(node, key).get("/v1/broadcasts")

describe("platform keys: list and revoke", () => {
  it("lists keys without the secret; a revoked key is 401 on every node from then on", async () => {
    const made = await admin(a).post("/admin/platform-keys", { name: "Shipped feeds" })
    expect(made.status, made.text).toBe(201)
    const spare = await admin(a).post("/admin/platform-keys", {})
    const { apiKey, keyId } = made.body as { apiKey: string; keyId: string }
    // Both nodes have it cached as valid.
    expect((await broadcasts(a, apiKey)).status).toBe(200)
    expect((await broadcasts(b, apiKey)).status).toBe(200)

    const listed = await admin(b).get("/admin/platform-keys")
    expect(listed.status, listed.text).toBe(200)
    expect(listed.body).toEqual({
      keys: [
        { keyId, name: "Shipped feeds", createdAt: expect.any(String), revokedAt: null },
        { keyId: spare.body.keyId, name: null, createdAt: expect.any(String), revokedAt: null }
      ]
    })
    expect(listed.text).not.toContain(apiKey)
    expect(Date.parse(listed.body.keys[0].createdAt)).not.toBeNaN()

    const revoked = await admin(a).post(`/admin/platform-keys/${keyId}/revoke`)
    expect(revoked.status, revoked.text).toBe(200)
    expect(revoked.body).toEqual({ revoked: true })
    expectError(await broadcasts(a, apiKey), 401, "unauthenticated")
    expectError(await broadcasts(b, apiKey), 401, "unauthenticated")
    expect((await broadcasts(b, spare.body.apiKey)).status).toBe(200)

    const after = (await admin(a).get("/admin/platform-keys")).body.keys as Array<
      { keyId: string; revokedAt: string | null }
    >
    const revokedAt = after.find((k) => k.keyId === keyId)!.revokedAt
    expect(Date.parse(revokedAt!)).not.toBeNaN()
    expect(after.find((k) => k.keyId === spare.body.keyId)!.revokedAt).toBeNull()
    // Revoking again answers the same and keeps the first time.
    expect((await admin(b).post(`/admin/platform-keys/${keyId}/revoke`)).body).toEqual({ revoked: true })
    const again = (await admin(a).get("/admin/platform-keys")).body.keys as Array<
      { keyId: string; revokedAt: string | null }
    >
    expect(again.find((k) => k.keyId === keyId)!.revokedAt).toBe(revokedAt)
  })

  it("an unknown key, or a workspace key's id, is 404 in the envelope; the workspace key keeps working", async () => {
    expectError(await admin(a).post("/admin/platform-keys/01ARZ3NDEKTSV4RRFFQ69G5FAV/revoke"), 404, "not_found")
    const { accountId } = await admin(a).workspace("Not a platform")
    const workspaceKey = await admin(a).key(accountId, ["streams:read"])
    expect(workspaceKey.keyId).toMatch(ULID)
    expectError(await admin(a).post(`/admin/platform-keys/${workspaceKey.keyId}/revoke`), 404, "not_found")
    expect((await client(b, workspaceKey.apiKey).get("/v1/streams")).status).toBe(200)
  })

  it("a revoked workspace key is 401 at once on the node that did not revoke it", async () => {
    const { accountId } = await admin(a).workspace("Revoked elsewhere")
    const { apiKey, keyId } = await admin(a).key(accountId, ["streams:read"])
    expect((await client(b, apiKey).get("/v1/streams")).status).toBe(200)
    expect((await admin(a).post(`/admin/workspaces/${accountId}/keys/${keyId}/revoke`)).status).toBe(200)
    expectError(await client(b, apiKey).get("/v1/streams"), 401, "unauthenticated")
  })
})
