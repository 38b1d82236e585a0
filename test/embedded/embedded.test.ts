import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { admin, client } from "../support/Client.js"
import { startNode, type TestNode } from "../support/Node.js"
import { expectError, indexClose, MARKET, newEventId } from "../support/Routes.js"

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-embedded-"))
let node: TestNode | undefined

// This file runs the node the way `npm start` does: compiled into dist/ first.
beforeAll(() => {
  execFileSync("npm", ["run", "build", "--silent"], { stdio: "inherit" })
}, 180_000)

afterAll(async () => {
  await node?.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe("embedded default (no DATABASE_URL)", () => {
  it("serves /health, keeps a stream across a restart, and writes the admin token file", async () => {
    node = await startNode({ dataDir, compiled: true, env: { ADMIN_TOKEN: "" } })
    const token = fs.readFileSync(path.join(dataDir, "admin-token"), "utf8").trim()
    expect(token.length).toBeGreaterThan(20)
    const health = await client(node).get("/health")
    expect(health.status).toBe(200)
    expect(health.body).toEqual({ status: "ok" })
    expect(fs.existsSync(path.join(dataDir, "pg"))).toBe(true)

    const operator = admin({ ...node, adminToken: token })
    const workspace = await operator.workspace("Embedded")
    const key = await operator.key(workspace.accountId, ["streams:read", "streams:write"])
    const created = await client(node, key.apiKey).post("/v1/streams", {
      name: "Survivor",
      templateId: "tpl_3a7c91e04b5d"
    })
    expect(created.status).toBe(201)

    await node.stop()
    node = await startNode({ dataDir, compiled: true, env: { ADMIN_TOKEN: "" } })
    const after = await client(node, key.apiKey).get("/v1/streams")
    expect(after.status).toBe(200)
    expect(after.body.streams.map((s: { id: string; name: string }) => [s.id, s.name])).toEqual([
      [created.body.stream.id, "Survivor"]
    ])
    const update = await client(node, key.apiKey).post(`/v1/streams/${created.body.stream.id}/update`, {
      name: "Renamed"
    })
    expect(update.status).toBe(200)
    // The same token is kept: it was written once to DATA_DIR and is read again on restart.
    expect(fs.readFileSync(path.join(dataDir, "admin-token"), "utf8").trim()).toBe(token)
  })

  it("lands events with their jobs on its single connection, and hears its own configuration changes", async () => {
    const token = fs.readFileSync(path.join(dataDir, "admin-token"), "utf8").trim()
    const operator = admin({ ...node!, adminToken: token })
    const workspace = await operator.workspace("Embedded sender")
    const key = await operator.key(workspace.accountId, [
      "streams:write",
      "channels:write",
      "brands:write",
      "ingest:write",
      "received:read"
    ])
    const api = client(node!, key.apiKey)
    await api.post("/v1/brands", { name: "House" })
    const stream = (await api.post("/v1/streams", { name: "Prices", templateId: MARKET })).body.stream
    const channel = (await api.post("/v1/channels", { name: "Shorts" })).body.channel
    expect((await api.post(`/v1/channels/${channel.id}/subscriptions`, { kind: "STREAM", streamId: stream.id })).status)
      .toBe(201)
    const body = { streamId: stream.id, eventId: newEventId(), occurredAt: new Date().toISOString(), data: indexClose }
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.post("/v1/stream", body)))
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(19).fill(200), 202])
    const accepted = answers.find((a) => a.status === 202)!
    expect(accepted.body.matched).toHaveLength(1)
    const logged = await api.get(`/v1/ingest-events/${accepted.body.ingestEventId}`)
    expect(logged.body.event.jobs.map((j: { channelId: string }) => j.channelId)).toEqual([channel.id])
    // The stream switched off is refused at once: the node's memory of it was dropped by the change.
    expect((await api.post(`/v1/streams/${stream.id}/update`, { enabled: false })).status).toBe(200)
    expectError(await api.post("/v1/stream", { ...body, eventId: newEventId() }), 409, "stream_disabled")
  })
})
