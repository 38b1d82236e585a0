import { beforeAll, describe, expect, it } from "vitest"
import { hasPermission, PLATFORM_SCOPE, requirementFor, workspaceScopes } from "../../src/domain/Permissions.js"
import { admin, call, workspaceWithKey } from "../support/Client.js"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET, ownerOnlyRoutes, type Route, routes } from "../support/Routes.js"

let accountId: string
let streamId: string
const keys = new Map<string, string>()

const { node } = useNode({ label: "permissions" })

beforeAll(async () => {
  const ws = await workspaceWithKey(node, ["*"], "Permissions")
  accountId = ws.accountId
  keys.set("*", ws.apiKey)
  const created = await ws.api.post("/v1/streams", { name: "Target", templateId: MARKET })
  expect(created.status, created.text).toBe(201)
  streamId = created.body.stream.id
})

/** A key of the test workspace holding exactly these scopes (one per distinct set). */
const keyWith = async (scopes: ReadonlyArray<string>) => {
  const name = scopes.join(",")
  const known = keys.get(name)
  if (known !== undefined) return known
  const { apiKey } = await admin(node).key(accountId, scopes)
  keys.set(name, apiKey)
  return apiKey
}

const send = (route: Route, key: string | undefined, headers: Record<string, string> = {}) =>
  call(node.url, route.method, route.path(streamId), {
    key,
    headers,
    ...(route.body === undefined ? {} : { body: route.body(streamId) })
  })

const permissioned = routes.filter((route) => route.permission !== "any")
const twoModes = routes.filter((route) => route.otherMode !== null)

describe("route × permission", () => {
  it.each(permissioned)("$name: a key holding exactly $permission passes", async (route) => {
    const r = await send(route, await keyWith([route.permission]))
    expect(r.status, r.text).toBe(route.ok)
  })

  it.each(routes)("$name: `*` passes", async (route) => {
    const r = await send(route, await keyWith(["*"]))
    expect(r.status, r.text).toBe(route.ok)
  })

  it.each(twoModes)("$name: $otherMode is the wrong mode, 403 naming $permission", async (route) => {
    const r = await send(route, await keyWith([route.otherMode!]))
    const error = expectError(r, 403, "forbidden")
    expect(error.message).toContain(route.permission)
  })

  const notSending = permissioned.filter((route) => route.permission !== "ingest:write")
  const sending = permissioned.filter((route) => route.permission === "ingest:write")

  it.each(notSending)("$name: ingest:write alone is 403 (prefixes match exactly)", async (route) => {
    const r = await send(route, await keyWith(["ingest:write"]))
    expect(expectError(r, 403, "forbidden").message).toContain(route.permission)
  })

  it.each(sending)("$name: streams:write alone cannot send, 403 naming ingest:write", async (route) => {
    const r = await send(route, await keyWith(["streams:write", "streams:read"]))
    expect(expectError(r, 403, "forbidden").message).toContain("ingest:write")
  })

  it.each(permissioned)("$name: every other workspace permission together is still 403", async (route) => {
    const r = await send(route, await keyWith(workspaceScopes.filter((s) => s !== route.permission)))
    expect(expectError(r, 403, "forbidden").message).toContain(route.permission)
  })

  it.each([[[]], [["ingest:write"]], [["received:read"]], [["allowance:read"]]])(
    "GET /v1/whoami answers any valid key: %j",
    async (scopes) => {
      const r = await call(node.url, "GET", "/v1/whoami", { key: await keyWith(scopes) })
      expect(r.status, r.text).toBe(200)
      expect(r.body).toEqual({ accountId, accountName: "Permissions", scopes, kind: "apikey" })
    }
  )
})

describe("credentials that are not valid: 401 on every route", () => {
  let revoked: string

  beforeAll(async () => {
    const { apiKey, keyId } = await admin(node).key(accountId, ["*"])
    const r = await admin(node).post(`/admin/workspaces/${accountId}/keys/${keyId}/revoke`)
    expect(r.status, r.text).toBe(200)
    revoked = apiKey
  })

  it.each(routes)("$name: missing key", async (route) => {
    expectError(await send(route, undefined), 401, "unauthenticated")
  })

  it.each(routes)("$name: unknown key", async (route) => {
    expectError(await send(route, "cw_thisKeyWasNeverIssuedByAnyoneAtAll0000000"), 401, "unauthenticated")
  })

  it.each(routes)("$name: revoked key", async (route) => {
    expectError(await send(route, revoked), 401, "unauthenticated")
  })

  it.each(routes)("$name: empty bearer and another scheme", async (route) => {
    expectError(await send(route, undefined, { authorization: "Bearer " }), 401, "unauthenticated")
    expectError(await send(route, undefined, { authorization: `Basic ${keys.get("*")}` }), 401, "unauthenticated")
  })
})

describe("x-service-account", () => {
  let other: string

  beforeAll(async () => {
    other = (await admin(node).workspace("Someone else")).accountId
  })

  it.each(routes)("$name: another account id is 403", async (route) => {
    const r = await send(route, await keyWith(["*"]), { "x-service-account": other })
    expectError(r, 403, "forbidden")
  })

  it.each(routes)("$name: the key's own account id passes", async (route) => {
    const r = await send(route, await keyWith(["*"]), { "x-service-account": accountId })
    expect(r.status, r.text).toBe(route.ok)
  })

  it("a refused create stores nothing", async () => {
    const id = "st_5e7e1ce0aaaa"
    const key = await keyWith(["*"])
    const r = await call(node.url, "POST", "/v1/streams", {
      key,
      headers: { "x-service-account": other },
      body: { id, name: "Smuggled", templateId: MARKET }
    })
    expectError(r, 403, "forbidden")
    const list = await call(node.url, "GET", "/v1/streams", { key })
    expect(list.body.streams.map((s: { id: string }) => s.id)).not.toContain(id)
  })
})

describe("platform keys", () => {
  it("are refused on workspace routes with 403", async () => {
    const created = await admin(node).post("/admin/platform-keys", { name: "Shipped feeds" })
    expect(created.status, created.text).toBe(201)
    const key = created.body.apiKey as string
    for (const route of permissioned) {
      const r = await send(route, key)
      expectError(r, 403, "forbidden")
    }
  })
})

describe("owner-only routes", () => {
  const anyKeyAtAll = [["*"], workspaceScopes, ["renders:write"], ["allowance:read"], []]

  it.each(ownerOnlyRoutes)("POST %s is 403 forbidden to every key, even `*`", async (path) => {
    for (const scopes of anyKeyAtAll) {
      const r = await call(node.url, "POST", path, { key: await keyWith(scopes), body: {} })
      expect(expectError(r, 403, "forbidden").message).toMatch(/owner/)
    }
    expectError(await call(node.url, "POST", path, { body: {} }), 401, "unauthenticated")
  })

  it.each(ownerOnlyRoutes)("the permission table refuses %s to every key", (path) => {
    expect(requirementFor("POST", path)).toEqual({ _tag: "OwnerOnly" })
  })

  it("`*` never grants the platform scope", () => {
    expect(hasPermission(["*"], "streams:write")).toBe(true)
    expect(hasPermission(["*"], PLATFORM_SCOPE)).toBe(false)
    expect(hasPermission(["streams:write"], "streams:read")).toBe(false)
  })
})

describe("issuing keys", () => {
  it("takes every workspace permission, and `*`", async () => {
    for (const scopes of [workspaceScopes, ["*"]]) {
      const r = await admin(node).post(`/admin/workspaces/${accountId}/keys`, { scopes })
      expect(r.status, r.text).toBe(201)
      expect(r.body.scopes).toEqual(scopes)
    }
  })

  it("refuses an unknown scope with 400 pointing at /scopes/<index>", async () => {
    const scopes = ["streams:read", "bogus", "ingest:read", PLATFORM_SCOPE, "streams:*", "received:read"]
    const r = await admin(node).post(`/admin/workspaces/${accountId}/keys`, { scopes })
    const error = expectError(r, 400, "schema_validation")
    expect(error.details.map((d) => d.path)).toEqual(["/scopes/1", "/scopes/2", "/scopes/3", "/scopes/4"])
    for (const detail of error.details) expect(detail.message.length).toBeGreaterThan(0)
  })
})
