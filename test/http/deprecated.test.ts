import { beforeAll, describe, expect, it } from "vitest"
import { type Answer, client, workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"

let api: ReturnType<typeof client>
let channelId: string

const scopes = ["channels:read", "channels:write", "brands:write", "connections:read", "connections:write"]
const pathsOf = (r: Answer) => r.body.error.details.map((d: { path: string }) => d.path)
const stored = async (id: string) =>
  (await query<{ key: string }>(db.url, "SELECT key FROM channel_credentials WHERE channel_id = $1", [id])).length
const deprecated = (r: Answer) => expect(r.headers.get("deprecation")).toBe("true")

const newChannel = async (c: ReturnType<typeof client>) => {
  await c.post("/v1/brands", { name: "House" })
  const r = await c.post("/v1/channels", {})
  expect(r.status, r.text).toBe(201)
  return r.body.channel.id as string
}

const { db, node } = useNode({ label: "deprecated" })

beforeAll(async () => {
  api = (await workspaceWithKey(node, scopes)).api
  channelId = await newChannel(api)
})

describe("channel credentials (deprecated)", () => {
  it("stores fields as given and shows secrets masked", async () => {
    const r = await api.put(`/v1/channels/${channelId}/credentials`, {
      fields: [
        { key: "access_token", label: "Access token", value: "EAAB-very-long-token-1234" },
        { key: "page_id", value: "10987", secret: false },
        { key: "app_secret", value: "" }
      ]
    })
    expect(r.status, r.text).toBe(200)
    deprecated(r)
    expect(r.body.channelId).toBe(channelId)
    expect(r.body.fields).toMatchObject([
      { key: "access_token", label: "Access token", secret: true, value: "••••1234", hint: "••••1234", complete: true },
      { key: "page_id", label: null, secret: false, value: "10987", hint: "10987", complete: true, unreadable: false },
      { key: "app_secret", secret: true, value: "", complete: false }
    ])
    const [row] = await query<{ value: string }>(
      db.url,
      "SELECT value FROM channel_credentials WHERE channel_id = $1 AND key = 'access_token'",
      [channelId]
    )
    expect(row!.value).toBe("EAAB-very-long-token-1234")
  })

  it("refuses bad input at the field and keeps what was stored", async () => {
    const twice = await api.put(`/v1/channels/${channelId}/credentials`, {
      fields: [{ key: "a", value: "1" }, { key: "a", value: "2" }]
    })
    expect(twice.status).toBe(400)
    expect(twice.body.error.code).toBe("schema_validation")
    expect(pathsOf(twice)).toEqual(["/fields/1/key"])
    deprecated(twice)
    const badKey = await api.put(`/v1/channels/${channelId}/credentials`, {
      fields: [{ key: "no spaces", value: "1" }]
    })
    expect(badKey.status).toBe(400)
    expect(pathsOf(badKey)).toContain("/fields/0/key")
    const noValue = await api.put(`/v1/channels/${channelId}/credentials`, { fields: [{ key: "x" }] })
    expect(noValue.status).toBe(400)
    expect(pathsOf(noValue)).toContain("/fields/0/value")
    expect(await stored(channelId)).toBe(3)
  })

  it("lists them under GET /v1/connections with the endpoint, and forgets them", async () => {
    const list = await api.get("/v1/connections")
    expect(list.status).toBe(200)
    deprecated(list)
    expect(list.body.mode).toBe("SELF_HOSTED")
    expect(list.body.endpoint).toMatch(/^http.*\/v1$/)
    expect(list.body.channels).toHaveLength(1)
    expect(list.body.channels[0]).toMatchObject({ channelId, surface: "instagram-reels" })
    const keys = list.body.channels[0].fields.map((f: { key: string }) => f.key)
    expect(keys).toEqual(["access_token", "page_id", "app_secret"])
    expect(JSON.stringify(list.body)).not.toContain("very-long-token")
    const forget = await api.post(`/v1/channels/${channelId}/credentials/delete`)
    expect(forget.status).toBe(200)
    deprecated(forget)
    expect(forget.body).toEqual({ deleted: true, forgotten: 3 })
    expect((await api.get("/v1/connections")).body.channels).toEqual([])
  })

  it("forgets a channel's credentials when the channel is deleted", async () => {
    const other = (await api.post("/v1/channels", {})).body.channel.id as string
    const put = await api.put(`/v1/channels/${other}/credentials`, { fields: [{ key: "t", value: "v" }] })
    expect(put.status).toBe(200)
    expect(await stored(other)).toBe(1)
    expect((await api.post(`/v1/channels/${other}/delete`)).status).toBe(200)
    expect(await stored(other)).toBe(0)
    const after = await api.put(`/v1/channels/${other}/credentials`, { fields: [{ key: "t", value: "v" }] })
    expect(after.status).toBe(404)
    deprecated(after)
  })

  it("answers another workspace's channel exactly like a missing one", async () => {
    const stranger = (await workspaceWithKey(node, scopes)).api
    const missing = await stranger.put("/v1/channels/01J00000000000000000000000/credentials", { fields: [] })
    const foreign = await stranger.put(`/v1/channels/${channelId}/credentials`, { fields: [] })
    expect(foreign.status).toBe(404)
    expect(foreign.body.error.code).toBe("not_found")
    expect(foreign.body.error.message.replace(channelId, "ID")).toBe(
      missing.body.error.message.replace("01J00000000000000000000000", "ID")
    )
    const forget = await stranger.post(`/v1/channels/${channelId}/credentials/delete`)
    expect(forget.status).toBe(404)
    deprecated(forget)
    expect((await stranger.get("/v1/connections")).body.channels).toEqual([])
  })
})

describe("connection mode (deprecated)", () => {
  it("answers SELF_HOSTED, refuses MANAGED with 409 and anything else at /mode", async () => {
    const ok = await api.put("/v1/connections/mode", { mode: "SELF_HOSTED" })
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ mode: "SELF_HOSTED" })
    deprecated(ok)
    const managed = await api.put("/v1/connections/mode", { mode: "MANAGED" })
    expect(managed.status).toBe(409)
    expect(managed.body.error.code).toBe("conflict")
    deprecated(managed)
    const other = await api.put("/v1/connections/mode", { mode: "CLOUD" })
    expect(other.status).toBe(400)
    expect(pathsOf(other)).toEqual(["/mode"])
    deprecated(other)
  })
})

describe("self-hosted connector (deprecated)", () => {
  it("answers the environment from this service and the workspace", async () => {
    const r = await api.get("/v1/connector/env")
    expect(r.status, r.text).toBe(200)
    deprecated(r)
    const byName = Object.fromEntries(r.body.variables.map((v: { name: string }) => [v.name, v]))
    // The node runs with the default PUBLIC_BASE_URL, http://localhost:$PORT.
    expect(new URL(byName.CLIPWRIGHT_BASE_URL.value).port).toBe(new URL(node.url).port)
    expect(byName.CLIPWRIGHT_WEBHOOK_URL.value).toBeNull()
    expect(byName.CLIPWRIGHT_WEBHOOK_SECRET).toMatchObject({ value: null, secret: true })
  })

  it.each(["node", "python"])("serves a %s receiver checking the Standard Webhooks signature", async (language) => {
    const r = await api.get(`/v1/connector/script/${language}`)
    expect(r.status).toBe(200)
    deprecated(r)
    expect(r.body.language).toBe(language)
    expect(r.body.script).toContain("webhook-signature")
  })

  it("describes a platform's adapter from its surfaces; unknown language or platform is 404", async () => {
    const r = await api.get("/v1/connector/adapters/youtube")
    expect(r.status).toBe(200)
    deprecated(r)
    expect(r.body.surfaces.map((s: { surface: string }) => s.surface)).toEqual(["youtube-shorts", "youtube-video"])
    expect(r.body.events).toEqual(["post.publish", "post.update", "post.delete"])
    for (const path of ["/v1/connector/script/cobol", "/v1/connector/adapters/myspace"]) {
      const missing = await api.get(path)
      expect(missing.status).toBe(404)
      expect(missing.body.error.code).toBe("not_found")
      deprecated(missing)
    }
  })
})

describe("permissions and headers", () => {
  it.each([
    ["PUT", "/v1/channels/X/credentials", "channels:write"],
    ["POST", "/v1/channels/X/credentials/delete", "channels:write"],
    ["GET", "/v1/connections", "connections:read"],
    ["PUT", "/v1/connections/mode", "connections:write"],
    ["GET", "/v1/connector/env", "connections:read"],
    ["GET", "/v1/connector/script/node", "connections:read"],
    ["GET", "/v1/connector/adapters/tiktok", "connections:read"]
  ])("%s %s needs %s (403 naming it, still deprecated)", async (method, path, permission) => {
    const reader = (await workspaceWithKey(node, ["streams:read"])).api
    const url = path.replace("X", channelId)
    const r = method === "GET"
      ? await reader.get(url)
      : method === "PUT"
      ? await reader.put(url, { mode: "SELF_HOSTED", fields: [] })
      : await reader.post(url)
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe("forbidden")
    expect(r.body.error.message).toContain(permission)
    deprecated(r)
  })

  it("current routes carry no Deprecation header", async () => {
    for (const path of ["/v1/channels", "/v1/channels/surfaces", `/v1/channels/${channelId}/nope`]) {
      expect((await api.get(path)).headers.get("deprecation")).toBeNull()
    }
  })

  it("marks the deprecated operations in the OpenAPI document, and only them", async () => {
    const doc = (await client(node).get("/v1/openapi.json")).body
    const flagged = Object.entries(doc.paths as Record<string, Record<string, { deprecated?: boolean }>>)
      .flatMap(([path, ops]) => Object.entries(ops).filter(([, op]) => op.deprecated).map(([m]) => `${m} ${path}`))
      .sort()
    expect(flagged).toEqual([
      "get /v1/connections",
      "get /v1/connector/adapters/{platform}",
      "get /v1/connector/env",
      "get /v1/connector/script/{language}",
      "post /v1/channels/{id}/credentials/delete",
      "put /v1/channels/{id}/credentials",
      "put /v1/connections/mode"
    ])
  })
})
