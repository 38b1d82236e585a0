import { beforeAll, describe, expect, it } from "vitest"
import { admin, call, client, workspaceWithKey } from "../support/Client.js"
import { useNode } from "../support/Rig.js"
import { expectError, ULID } from "../support/Routes.js"

let operator: ReturnType<typeof admin>
let accountId: string

const { node } = useNode({ label: "admin" })

beforeAll(async () => {
  operator = admin(node)
  accountId = (await operator.workspace("Admin fixture")).accountId
})

const UNKNOWN = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
/** A public address literal: accepted without a DNS lookup, so the tests need no network (nothing is sent). */
const PUBLIC_IP = "93.184.215.14"

/** Every admin route of CONTRACT.md with a body that would be accepted. */
const adminRoutes = () => [
  { method: "POST", path: "/admin/workspaces", body: { name: "Refused" } },
  { method: "POST", path: `/admin/workspaces/${accountId}/keys`, body: { scopes: ["*"] } },
  { method: "POST", path: `/admin/workspaces/${accountId}/keys/${UNKNOWN}/revoke`, body: undefined },
  { method: "PUT", path: `/admin/workspaces/${accountId}/webhook`, body: { url: `https://${PUBLIC_IP}/clips` } },
  { method: "POST", path: `/admin/workspaces/${accountId}/members`, body: { email: "no@example.com", role: "member" } },
  { method: "PUT", path: `/admin/workspaces/${accountId}/limits`, body: { seats: 1 } },
  { method: "POST", path: "/admin/platform-keys", body: {} },
  { method: "GET", path: "/admin/platform-keys", body: undefined },
  { method: "POST", path: `/admin/platform-keys/${UNKNOWN}/revoke`, body: undefined }
]

describe("admin token", () => {
  it("a missing, wrong or API-key bearer is 401 on every admin route", async () => {
    const { apiKey } = await workspaceWithKey(node, ["*"])
    const platformKey = (await operator.post("/admin/platform-keys", {})).body.apiKey as string
    const wrong = [undefined, "wrong-token", `${node.adminToken}x`, node.adminToken.slice(0, -1), apiKey, platformKey]
    for (const route of adminRoutes()) {
      for (const key of wrong) {
        const r = await call(node.url, route.method, route.path, { key, body: route.body })
        expectError(r, 401, "unauthenticated")
      }
    }
  })

  it("a refused call changes nothing", async () => {
    const r = await call(node.url, "PUT", `/admin/workspaces/${accountId}/limits`, {
      key: "wrong-token",
      body: { renderAllowance: 1 }
    })
    expectError(r, 401, "unauthenticated")
    const limits = await operator.put(`/admin/workspaces/${accountId}/limits`, {})
    expect(limits.body.quota.allowance).toBe(500)
  })

  it("the admin token is not an API key", async () => {
    expectError(await client(node, node.adminToken).get("/v1/whoami"), 401, "unauthenticated")
  })
})

describe("workspaces and keys", () => {
  it("creates a workspace: 201 { accountId, accountName }", async () => {
    const r = await operator.post("/admin/workspaces", { name: "Newsroom", ownerEmail: "owner@example.com" })
    expect(r.status, r.text).toBe(201)
    expect(r.body).toEqual({ accountId: expect.stringMatching(ULID), accountName: "Newsroom" })
  })

  it("refuses a workspace without a valid name or owner email", async () => {
    for (const body of [{}, { name: "" }, { name: "x".repeat(121) }, { name: 7 }, { name: "Ok", ownerEmail: "nope" }]) {
      expectError(await operator.post("/admin/workspaces", body), 400, "schema_validation")
    }
  })

  it("issues a key: 201 { keyId, apiKey, scopes }, and whoami answers for it", async () => {
    const ws = await operator.workspace("Keyed")
    const scopes = ["streams:read", "templates:read"]
    const r = await operator.post(`/admin/workspaces/${ws.accountId}/keys`, { scopes, name: "CI" })
    expect(r.status, r.text).toBe(201)
    expect(r.body).toEqual({ keyId: expect.stringMatching(ULID), apiKey: expect.any(String), scopes })
    const me = await client(node, r.body.apiKey).get("/v1/whoami")
    expect(me.status, me.text).toBe(200)
    expect(me.body).toEqual({ accountId: ws.accountId, accountName: "Keyed", scopes, kind: "apikey" })
  })

  it("each key is distinct and shown once", async () => {
    const a = await operator.key(accountId, ["*"])
    const b = await operator.key(accountId, ["*"])
    expect(a.apiKey).not.toBe(b.apiKey)
    expect(a.keyId).not.toBe(b.keyId)
  })

  it("revokes a key: { revoked: true }, then the key is 401", async () => {
    const { keyId, apiKey } = await operator.key(accountId, ["*"])
    const keep = await operator.key(accountId, ["*"])
    expect((await client(node, apiKey).get("/v1/whoami")).status).toBe(200)
    const r = await operator.post(`/admin/workspaces/${accountId}/keys/${keyId}/revoke`)
    expect(r.status, r.text).toBe(200)
    expect(r.body).toEqual({ revoked: true })
    expectError(await client(node, apiKey).get("/v1/whoami"), 401, "unauthenticated")
    expectError(await client(node, apiKey).get("/v1/streams"), 401, "unauthenticated")
    expect((await client(node, keep.apiKey).get("/v1/whoami")).status).toBe(200)
  })

  it("revoking a key of another workspace, or no key, is 404", async () => {
    const other = await workspaceWithKey(node, ["*"])
    const r = await operator.post(`/admin/workspaces/${accountId}/keys/${other.keyId}/revoke`)
    expectError(r, 404, "not_found")
    expect((await other.api.get("/v1/whoami")).status).toBe(200)
    expectError(await operator.post(`/admin/workspaces/${accountId}/keys/${UNKNOWN}/revoke`), 404, "not_found")
  })
})

describe("webhook", () => {
  it("answers { url, secret } with secret whsec_ + base64 of 32 bytes", async () => {
    const url = `https://${PUBLIC_IP}/clipwright`
    const r = await operator.put(`/admin/workspaces/${accountId}/webhook`, { url })
    expect(r.status, r.text).toBe(200)
    expect(r.body).toEqual({ url, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+={0,2}$/) })
    const bytes = Buffer.from(r.body.secret.slice("whsec_".length), "base64")
    expect(bytes.length).toBe(32)
    expect(bytes.toString("base64")).toBe(r.body.secret.slice("whsec_".length))
  })

  it("draws a new secret each time", async () => {
    const url = `http://${PUBLIC_IP}:8443/again?x=1`
    const a = await operator.put(`/admin/workspaces/${accountId}/webhook`, { url })
    const b = await operator.put(`/admin/workspaces/${accountId}/webhook`, { url })
    expect(a.body.secret).not.toBe(b.body.secret)
  })

  // CONTRACT.md "Environment": without ALLOW_PRIVATE_URLS a loopback or private address is 400 blocked_url.
  it("refuses loopback, private and link-local addresses with 400 blocked_url at /url", async () => {
    const urls = [
      "http://127.0.0.1:9000/hook",
      "http://localhost/hook",
      "https://10.1.2.3/hook",
      "https://192.168.1.20/",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/",
      "http://[::ffff:172.16.0.1]/"
    ]
    for (const url of urls) {
      const r = await operator.put(`/admin/workspaces/${accountId}/webhook`, { url })
      const error = expectError(r, 400, "blocked_url")
      expect(error.details.map((d) => d.path), url).toEqual(["/url"])
    }
  })

  it("refuses anything but an absolute http(s) URL with 400 schema_validation at /url", async () => {
    for (const url of ["not a url", "/hooks/relative", "ftp://93.184.215.14/x", "javascript:alert(1)", ""]) {
      const r = await operator.put(`/admin/workspaces/${accountId}/webhook`, { url })
      expect(expectError(r, 400, "schema_validation").details.map((d) => d.path), url).toEqual(["/url"])
    }
  })

  it("refuses a body without url", async () => {
    expectError(await operator.put(`/admin/workspaces/${accountId}/webhook`, {}), 400, "schema_validation")
  })
})

describe("webhook with ALLOW_PRIVATE_URLS=true", () => {
  const { node: privateNode } = useNode({ label: "admin_private", env: { ALLOW_PRIVATE_URLS: "true" } })

  it("accepts loopback and private addresses, and still refuses a non-URL", async () => {
    const local = admin(privateNode)
    const { accountId: id } = await local.workspace("Local development")
    for (const url of ["http://127.0.0.1:9000/hook", "http://localhost:3000/hook", "http://10.0.0.5/hook"]) {
      const r = await local.put(`/admin/workspaces/${id}/webhook`, { url })
      expect(r.status, r.text).toBe(200)
      expect(r.body.url).toBe(url)
    }
    expectError(await local.put(`/admin/workspaces/${id}/webhook`, { url: "not a url" }), 400, "schema_validation")
  })
})

describe("members", () => {
  it.each(["owner", "operations", "member"])("adds a %s: 201 { member }", async (role) => {
    const email = `${role}@members.example.com`
    const r = await operator.post(`/admin/workspaces/${accountId}/members`, { email, role })
    expect(r.status, r.text).toBe(201)
    expect(r.body).toEqual({ member: { id: expect.stringMatching(ULID), email, role } })
  })

  it("refuses an unknown role with 400 at /role", async () => {
    for (const role of ["admin", "Owner", "", 1]) {
      const r = await operator.post(`/admin/workspaces/${accountId}/members`, { email: "x@example.com", role })
      const error = expectError(r, 400, "schema_validation")
      expect(error.details.map((d) => d.path)).toContain("/role")
    }
  })

  it("refuses a bad email with 400 at /email", async () => {
    const r = await operator.post(`/admin/workspaces/${accountId}/members`, { email: "not an email", role: "member" })
    expect(expectError(r, 400, "schema_validation").details.map((d) => d.path)).toContain("/email")
  })

  it("the same person twice is 409", async () => {
    const body = { email: "twice@example.com", role: "member" }
    expect((await operator.post(`/admin/workspaces/${accountId}/members`, body)).status).toBe(201)
    expectError(await operator.post(`/admin/workspaces/${accountId}/members`, body), 409, "conflict")
  })
})

describe("limits", () => {
  it("a new workspace has 500 renders a month (limits with only seats)", async () => {
    const ws = await operator.workspace("Fresh limits")
    const r = await operator.put(`/admin/workspaces/${ws.accountId}/limits`, { seats: 3 })
    expect(r.status, r.text).toBe(200)
    expect(r.body.quota).toMatchObject({ allowance: 500, used: 0, remaining: 500, unlimited: false, overridden: true })
  })

  it("answers { quota } with the new allowance, marked overridden", async () => {
    const ws = await operator.workspace("Raised")
    const r = await operator.put(`/admin/workspaces/${ws.accountId}/limits`, { renderAllowance: 42, storageMb: 2048 })
    expect(r.status, r.text).toBe(200)
    const quota = r.body.quota
    expect(quota).toMatchObject({ allowance: 42, used: 0, extra: 0, remaining: 42, overridden: true })
    expect(Date.parse(quota.periodStart)).toBeLessThanOrEqual(Date.now())
    expect(Date.parse(quota.periodEnd)).toBeGreaterThan(Date.now())
    const again = await operator.put(`/admin/workspaces/${ws.accountId}/limits`, { seats: 1 })
    expect(again.body.quota.allowance).toBe(42)
  })

  it("refuses limits that are not non-negative integers", async () => {
    for (const body of [{ renderAllowance: -1 }, { storageMb: 1.5 }, { seats: "3" }, { renderAllowance: 2 ** 31 }]) {
      expectError(await operator.put(`/admin/workspaces/${accountId}/limits`, body), 400, "schema_validation")
    }
  })
})

describe("platform keys", () => {
  it("answers 201 { keyId, apiKey }", async () => {
    const r = await operator.post("/admin/platform-keys", { name: "Shipped feeds" })
    expect(r.status, r.text).toBe(201)
    expect(r.body).toEqual({ keyId: expect.stringMatching(ULID), apiKey: expect.any(String) })
    const unnamed = await operator.post("/admin/platform-keys", {})
    expect(unnamed.status, unnamed.text).toBe(201)
    expect(unnamed.body.apiKey).not.toBe(r.body.apiKey)
  })
})

describe("unknown workspace", () => {
  it("is a 404 envelope on every workspace route", async () => {
    const routes = adminRoutes().filter((route) => route.path.includes(accountId))
    expect(routes).toHaveLength(5)
    for (const route of routes) {
      const r = await call(node.url, route.method, route.path.replace(accountId, UNKNOWN), {
        key: node.adminToken,
        body: route.body
      })
      expectError(r, 404, "not_found")
    }
  })
})
