import { beforeAll, describe, expect, it } from "vitest"
import { type Answer, call, workspaceWithKey } from "../support/Client.js"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET } from "../support/Routes.js"

let a: Awaited<ReturnType<typeof workspaceWithKey>>
let b: Awaited<ReturnType<typeof workspaceWithKey>>

const A_STREAM = "st_a0a0a0a0a0a0"
const A_REMOVED = "st_a0a0a0a0dead"
const MISSING = "st_0123456789ab"

const { node } = useNode({ label: "auth" })

beforeAll(async () => {
  a = await workspaceWithKey(node, ["*"], "Workspace A")
  b = await workspaceWithKey(node, ["*"], "Workspace B")
  for (const id of [A_STREAM, A_REMOVED]) {
    const r = await a.api.post("/v1/streams", { id, name: `A ${id}`, templateId: MARKET })
    expect(r.status, r.text).toBe(201)
  }
  expect((await a.api.post(`/v1/streams/${A_REMOVED}/delete`)).status).toBe(200)
})

const ids = (r: Answer) => (r.body.streams as Array<{ id: string }>).map((s) => s.id)

/** Status, code and message (with the stream id blanked) of an error answer: what a caller could tell apart. */
const shape = (r: Answer, id: string) => ({
  status: r.status,
  code: r.body?.error?.code,
  message: String(r.body?.error?.message).replaceAll(id, "<id>")
})

describe("workspace isolation", () => {
  it("each key answers for its own workspace", async () => {
    const [me, them] = await Promise.all([a.api.get("/v1/whoami"), b.api.get("/v1/whoami")])
    expect(me.body.accountId).toBe(a.accountId)
    expect(them.body.accountId).toBe(b.accountId)
    expect(me.body.accountId).not.toBe(them.body.accountId)
  })

  it("B's list does not show A's streams", async () => {
    const created = await b.api.post("/v1/streams", { name: "B's own", templateId: MARKET })
    expect(created.status, created.text).toBe(201)
    const theirs = await b.api.get("/v1/streams")
    expect(theirs.status).toBe(200)
    expect(ids(theirs)).toEqual([created.body.stream.id])
    const mine = await a.api.get("/v1/streams")
    expect(ids(mine)).toContain(A_STREAM)
    expect(ids(mine)).not.toContain(created.body.stream.id)
  })

  it.each(
    [
      ["update", { name: "Hijacked", enabled: false }],
      ["delete", undefined],
      ["suggest-map", {}]
    ] as const
  )("B's %s of A's stream is 404, exactly like a missing stream", async (action, body) => {
    const theirs = await b.api.post(`/v1/streams/${A_STREAM}/${action}`, body)
    const missing = await b.api.post(`/v1/streams/${MISSING}/${action}`, body)
    expectError(theirs, 404, "not_found")
    expectError(missing, 404, "not_found")
    expect(shape(theirs, A_STREAM)).toEqual(shape(missing, MISSING))
  })

  it("A's stream is untouched by B's attempts", async () => {
    const stream = (await a.api.get("/v1/streams")).body.streams.find((s: { id: string }) => s.id === A_STREAM)
    expect(stream).toMatchObject({ id: A_STREAM, name: `A ${A_STREAM}`, enabled: true })
    // A still owns it: A's own update works.
    expect((await a.api.post(`/v1/streams/${A_STREAM}/update`, { description: "still mine" })).status).toBe(200)
  })

  it("A's removed stream is 404 for both, and B cannot tell it from a missing one", async () => {
    for (const ws of [a, b]) {
      const removed = await ws.api.post(`/v1/streams/${A_REMOVED}/update`, { name: "Back" })
      const missing = await ws.api.post(`/v1/streams/${MISSING}/update`, { name: "Back" })
      expectError(removed, 404, "not_found")
      expect(shape(removed, A_REMOVED)).toEqual(shape(missing, MISSING))
    }
  })

  it("stream ids are global: B cannot take A's id, live or removed (409)", async () => {
    for (const id of [A_STREAM, A_REMOVED]) {
      const r = await b.api.post("/v1/streams", { id, name: "Squatter", templateId: MARKET })
      expectError(r, 409, "conflict")
    }
    expect(ids(await b.api.get("/v1/streams"))).not.toContain(A_STREAM)
    const stream = (await a.api.get("/v1/streams")).body.streams.find((s: { id: string }) => s.id === A_STREAM)
    expect(stream.name).toBe(`A ${A_STREAM}`)
  })

  it("A cannot take its own removed id back either", async () => {
    const r = await a.api.post("/v1/streams", { id: A_REMOVED, name: "Again", templateId: MARKET })
    expectError(r, 409, "conflict")
  })

  it("a key of A with x-service-account naming B is 403, not a way into B", async () => {
    const r = await call(node.url, "GET", "/v1/streams", {
      key: a.apiKey,
      headers: { "x-service-account": b.accountId }
    })
    expectError(r, 403, "forbidden")
  })
})

describe("bearer credentials", () => {
  it("the same key works on every call, and only with the Bearer scheme", async () => {
    for (let i = 0; i < 3; i++) expect((await a.api.get("/v1/whoami")).status).toBe(200)
    for (
      const authorization of [a.apiKey, `Token ${a.apiKey}`, `Bearer  ${a.apiKey}x`, `Bearer ${a.apiKey.slice(0, -1)}`]
    ) {
      const r = await call(node.url, "GET", "/v1/whoami", { headers: { authorization } })
      expectError(r, 401, "unauthenticated")
    }
  })

  it("a 401 never says whether a key exists", async () => {
    const { accountId, keyId, apiKey } = await workspaceWithKey(node, ["*"])
    const revoke = await call(node.url, "POST", `/admin/workspaces/${accountId}/keys/${keyId}/revoke`, {
      key: node.adminToken
    })
    expect(revoke.status, revoke.text).toBe(200)
    const revoked = await call(node.url, "GET", "/v1/streams", { key: apiKey })
    const unknown = await call(node.url, "GET", "/v1/streams", { key: "cw_nobodyEverIssuedThisKey" })
    const missing = await call(node.url, "GET", "/v1/streams")
    for (const r of [revoked, unknown, missing]) expectError(r, 401, "unauthenticated")
    expect(new Set([revoked, unknown, missing].map((r) => r.body.error.message)).size).toBe(1)
  })
})
