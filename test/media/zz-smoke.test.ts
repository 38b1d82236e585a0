import { afterAll, beforeAll, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { createTestDatabase, type TestDatabase } from "../support/Database.js"
import { png } from "../support/MediaFiles.js"
import { startNode, type TestNode } from "../support/Node.js"
import { peakRssDuring, rssOf, streamUpload, upload } from "../support/Uploads.js"

let db: TestDatabase
let node: TestNode
beforeAll(async () => {
  db = await createTestDatabase("smoke_media")
  node = await startNode({ databaseUrl: db.url })
}, 120_000)
afterAll(async () => { await node?.stop(); await db?.drop() })

it("smoke", async () => {
  const ws = await workspaceWithKey(node, ["*"])
  const pid = node.process.pid!
  const before = rssOf(pid)
  const big = new Uint8Array(60 * 1024 * 1024)
  big.set(png(10, 10))
  const a = await peakRssDuring(pid, () => upload(`${node.url}/v1/media`, ws.apiKey, { bytes: big, name: "big.png" }))
  console.log("content-length", a.result.status, a.result.text, (a.peak - before) / 1e6)
  const b = await peakRssDuring(pid, () => streamUpload(`${node.url}/v1/media`, ws.apiKey, png(10, 10), 60 * 1024 * 1024))
  console.log("chunked", b.result.status, b.result.text, b.result.sent() / 1e6, (b.peak - before) / 1e6)
  const c = await peakRssDuring(pid, () => streamUpload(`${node.url}/v1/media`, ws.apiKey, png(10, 10), 3 * 1024 * 1024, "ok.png"))
  console.log("chunked small", c.result.status, c.result.text.slice(0, 200), (c.peak - before) / 1e6)
  const l = await ws.api.get("/v1/media")
  console.log(l.body.files.length)
  console.log(node.output().slice(-3000))
}, 120_000)
