import { describe, expect, it } from "vitest"
import { admin, client, workspaceWithKey } from "../support/Client.js"
import { useNode } from "../support/Rig.js"
import { expectError, MARKET } from "../support/Routes.js"

const { node } = useNode({ label: "stream_ingest" })

/** A workspace with a configuring key and a sending key of its own. */
const workspace = async (name: string) => {
  const config = await workspaceWithKey(node, ["streams:write", "streams:read"], name)
  const sender = await admin(node).key(config.accountId, ["ingest:write"])
  return { accountId: config.accountId, config: config.api, sender: client(node, sender.apiKey) }
}

describe("GET /v1/stream", () => {
  it("lists the workspace's live streams a sending key may address, and no other workspace's", async () => {
    const mine = await workspace("Sender")
    const theirs = await workspace("Someone else")
    const on = (await mine.config.post("/v1/streams", { name: "Prices", templateId: MARKET })).body.stream
    const off =
      (await mine.config.post("/v1/streams", { name: "Paused", templateId: MARKET, enabled: false })).body.stream
    const gone = (await mine.config.post("/v1/streams", { name: "Gone", templateId: MARKET })).body.stream
    expect((await mine.config.post(`/v1/streams/${gone.id}/delete`)).status).toBe(200)
    await theirs.config.post("/v1/streams", { name: "Not yours", templateId: MARKET })

    const r = await mine.sender.get("/v1/stream")
    expect(r.status, r.text).toBe(200)
    expect(r.body.route).toMatch(/\/v1\/stream$/)
    expect(r.body.streams).toHaveLength(2)
    expect(r.body.streams).toEqual(expect.arrayContaining([
      { streamId: on.id, name: "Prices", templateId: MARKET, enabled: true },
      { streamId: off.id, name: "Paused", templateId: MARKET, enabled: false }
    ]))
  })

  it("needs ingest:write: streams:write alone is 403 naming it", async () => {
    const mine = await workspace("Config only")
    const r = await mine.config.get("/v1/stream")
    expectError(r, 403, "forbidden")
    expect(r.body.error.message).toContain("ingest:write")
  })

  it("an x-service-account naming another account is 403; the key's own passes", async () => {
    const mine = await workspace("Declared")
    const other = await admin(node).workspace("Other account")
    expectError(await mine.sender.get("/v1/stream", { "x-service-account": other.accountId }), 403, "forbidden")
    expect((await mine.sender.get("/v1/stream", { "x-service-account": mine.accountId })).status).toBe(200)
  })
})
