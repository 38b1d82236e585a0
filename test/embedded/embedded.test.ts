import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { admin, client } from "../support/Client.js"
import { startNode, type TestNode } from "../support/Node.js"

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
    const created = await client(node, key.apiKey).post("/v1/streams", { name: "Survivor", templateId: "tpl_3a7c91e04b5d" })
    expect(created.status).toBe(201)

    await node.stop()
    node = await startNode({ dataDir, compiled: true, env: { ADMIN_TOKEN: "" } })
    const after = await client(node, key.apiKey).get("/v1/streams")
    expect(after.status).toBe(200)
    expect(after.body.streams.map((s: { id: string; name: string }) => [s.id, s.name])).toEqual([
      [created.body.stream.id, "Survivor"]
    ])
    const update = await client(node, key.apiKey).post(`/v1/streams/${created.body.stream.id}/update`, { name: "Renamed" })
    expect(update.status).toBe(200)
    // The same token is kept: it was written once to DATA_DIR and is read again on restart.
    expect(fs.readFileSync(path.join(dataDir, "admin-token"), "utf8").trim()).toBe(token)
  })
})
