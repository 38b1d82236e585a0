import { beforeAll, describe, expect, it } from "vitest"
import { call, workspaceWithKey } from "../support/Client.js"
import { compactExample, videoBody } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"
import { PNG_SIGNATURE, pngSize, readZip } from "../support/ZipRead.js"

let ws: Awaited<ReturnType<typeof workspaceWithKey>>
let example: Record<string, unknown>

// Two slots: a workspace may have two keyframes requests in progress on the node.
const { node } = useNode({ label: "keyframes", env: { RENDER_SLOTS: "2" } })

beforeAll(async () => {
  ws = await workspaceWithKey(node, ["renders:write", "templates:read", "allowance:read"])
  example = await compactExample(ws.api)
})

/** POST answered once its headers are in; the body is read when asked. */
const ask = (body: unknown, apiKey = ws.apiKey) =>
  fetch(`${node.url}/v1/direct-export/keyframes`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })

/** POST returning the raw bytes (the shared client reads text). */
const keyframes = async (body: unknown, apiKey = ws.apiKey) => {
  const response = await ask(body, apiKey)
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
    const r = await ws.api.post(
      "/v1/direct-export/keyframes",
      videoBody(example, {
        frames: [{ name: "ok", frame: 10 }, { name: "late", frame: 180 }]
      })
    )
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

  it("streams 60 frames; a workspace's third request at once is 503 while another workspace is served", async () => {
    const frames = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `frame ${i}`, frame: i * 3 }))
    // Headers come once the first frame is drawn; the others are drawn as the zip is read.
    const sixty = await ask(videoBody(example, { frames: frames(60) }))
    const eight = await ask(videoBody(example, { frames: frames(8) }))
    expect([sixty.status, eight.status]).toEqual([200, 200])
    expect(sixty.headers.get("content-length")).toBeNull()
    const bodies = [sixty.arrayBuffer(), eight.arrayBuffer()]

    const third = await ws.api.post("/v1/direct-export/keyframes", videoBody(example, { frames: frames(1) }))
    expect(third.status, third.text).toBe(503)
    expect(third.body.error.code).toBe("upstream_unavailable")
    expect(third.body.error.retryAfterSeconds).toBeGreaterThan(0)
    expect(third.headers.get("retry-after")).not.toBeNull()

    const other = await workspaceWithKey(node, ["renders:write"], "Neighbour")
    const theirs = await keyframes(videoBody(example, { frames: [{ name: "cover", frame: 30 }] }), other.apiKey)
    expect(theirs.status, theirs.bytes.toString("utf8").slice(0, 400)).toBe(200)
    expect(readZip(theirs.bytes).map((e) => e.name)).toEqual(["cover.png"])

    const [all, some] = (await Promise.all(bodies)).map((bytes) => readZip(Buffer.from(bytes)))
    expect(all!.map((e) => e.name)).toEqual(frames(60).map((f) => `${f.name}.png`))
    expect(some!.map((e) => e.name)).toEqual(frames(8).map((f) => `${f.name}.png`))
    for (const entry of [...all!, ...some!]) {
      expect(entry.data.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
      expect(pngSize(entry.data)).toEqual({ width: 1080, height: 1080 })
    }
    expect(all![3]!.data.equals(some![3]!.data)).toBe(true)
    // Both done: the workspace's requests in progress are released, and the next one is taken.
    const again = await keyframes(videoBody(example, { frames: [{ name: "again", frame: 0 }] }))
    expect(again.status).toBe(200)
  }, 480_000)
})
