import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, workspaceWithKey } from "../support/Client.js"
import { createTestDatabase, type TestDatabase } from "../support/Database.js"
import { compactExample, videoBody } from "../support/Exports.js"
import { startNode, type TestNode } from "../support/Node.js"
import { PNG_SIGNATURE, pngSize, readZip } from "../support/ZipRead.js"

let db: TestDatabase
let node: TestNode
let ws: Awaited<ReturnType<typeof workspaceWithKey>>
let example: Record<string, unknown>

beforeAll(async () => {
  db = await createTestDatabase("keyframes")
  node = await startNode({ databaseUrl: db.url })
  ws = await workspaceWithKey(node, ["renders:write", "templates:read", "allowance:read"])
  example = await compactExample(ws.api)
})

afterAll(async () => {
  await node?.stop()
  await db?.drop()
})

/** POST returning the raw bytes (the shared client reads text). */
const keyframes = async (body: unknown) => {
  const response = await fetch(`${node.url}/v1/direct-export/keyframes`, {
    method: "POST",
    headers: { authorization: `Bearer ${ws.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
}

const post = (body: unknown) => ws.api.post("/v1/direct-export/keyframes", body)

describe("POST /v1/direct-export/keyframes", () => {
  it("answers a zip of PNGs named after the keyframes at the ratio's size, not touching the allowance", async () => {
    const before = await ws.api.get("/v1/renders/quota")
    expect(before.status).toBe(200)
    const r = await keyframes(videoBody(example, {
      ratio: "4x5",
      frames: [
        { name: "opening", frame: 0 },
        { name: "mid/way", frame: 90 },
        { name: "opening", frame: 179 },
        { name: "last.png", frame: 179 }
      ]
    }))
    expect(r.status, r.bytes.toString("utf8").slice(0, 400)).toBe(200)
    expect(r.headers.get("content-type")).toBe("application/zip")
    expect(r.headers.get("content-disposition")).toMatch(/^attachment; filename=/)
    const entries = readZip(r.bytes)
    expect(entries.map((e) => e.name)).toEqual(["opening.png", "mid_way.png", "opening (2).png", "last.png"])
    for (const entry of entries) {
      expect(entry.data.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
      expect(pngSize(entry.data)).toEqual({ width: 1080, height: 1350 })
    }
    // The first and last frames differ: the frame number is honoured.
    expect(entries[0]!.data.equals(entries[2]!.data)).toBe(false)
    expect(entries[2]!.data.equals(entries[3]!.data)).toBe(true)
    const after = await ws.api.get("/v1/renders/quota")
    expect(after.body.quota.used).toBe(before.body.quota.used)
    expect(after.body.quota.remaining).toBe(before.body.quota.remaining)
  })

  it("refuses a frame past the clip's end with 400 naming its path", async () => {
    const r = await ws.api.post("/v1/direct-export/keyframes", videoBody(example, {
      frames: [{ name: "ok", frame: 10 }, { name: "late", frame: 180 }]
    }))
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe("schema_validation")
    expect(r.body.error.details.map((d: { path: string }) => d.path)).toEqual(["/frames/1/frame"])
  })

  it("checks the body: frame count, negative frames, shape, template and content", async () => {
    const none = await ws.api.post("/v1/direct-export/keyframes", videoBody(example, { frames: [] }))
    expect(none.status).toBe(400)
    expect(none.body.error.code).toBe("schema_validation")
    const many = Array.from({ length: 61 }, (_, i) => ({ name: `f${i}`, frame: i }))
    expect((await ws.api.post("/v1/direct-export/keyframes", videoBody(example, { frames: many }))).status).toBe(400)
    const negative = await post(videoBody(example, { frames: [{ name: "x", frame: -1 }] }))
    expect(negative.status).toBe(400)
    expect(negative.body.error.details[0].path).toBe("/frames/0/frame")
    const frames = [{ name: "x", frame: 1 }]
    const shape = await ws.api.post("/v1/direct-export/keyframes", videoBody(example, { frames, ratio: "16x9" }))
    expect(shape.body.error.code).toBe("ratio_not_supported")
    const unknown = await post(videoBody(example, { frames, templateId: "tpl_000000000000" }))
    expect(unknown.body.error.code).toBe("unknown_template")
    const content = await ws.api.post("/v1/direct-export/keyframes", videoBody({ clipData: {} }, { frames }))
    expect(content.status).toBe(400)
    expect(content.body.error.details[0].path).toMatch(/^\/data\//)
  })

  it("needs renders:write", async () => {
    const reader = await workspaceWithKey(node, ["renders:read"], "Reader")
    const r = await call(node.url, "POST", "/v1/direct-export/keyframes", {
      key: reader.apiKey,
      body: videoBody(example, { frames: [{ name: "x", frame: 0 }] })
    })
    expect(r.status).toBe(403)
  })
})
