import { beforeAll, describe, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { MARKET } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"

let ws: Awaited<ReturnType<typeof workspaceWithKey>>

const { node } = useNode({ label: "reference_clips" })

beforeAll(async () => {
  ws = await workspaceWithKey(node, ["templates:read"])
})

const fetchClip = async (path: string, headers: Record<string, string> = {}) => {
  const started = Date.now()
  const response = await fetch(`${node.url}${path}`, { headers: { authorization: `Bearer ${ws.apiKey}`, ...headers } })
  const bytes = Buffer.from(await response.arrayBuffer())
  return { status: response.status, headers: response.headers, bytes, ms: Date.now() - started }
}

const COMPACT = `/v1/templates/${MARKET}/reference/1x1?variant=compact&version=1.0.1`

describe("GET /v1/templates/{templateId}/reference/{ratio}", () => {
  it("draws an MP4 once, shares it between concurrent first requests, then serves it from the store", async () => {
    const [first, twin] = await Promise.all([fetchClip(COMPACT), fetchClip(COMPACT)])
    expect(first.status, first.bytes.toString("utf8").slice(0, 300)).toBe(200)
    expect(first.headers.get("content-type")).toBe("video/mp4")
    expect(first.bytes.subarray(4, 8).toString("latin1")).toBe("ftyp")
    expect(first.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/)
    expect(first.headers.get("cache-control")).toBe("private, no-cache")
    expect(first.headers.get("x-template-version")).toBe("1.0.1")
    expect(twin.headers.get("etag")).toBe(first.headers.get("etag"))
    expect(twin.bytes.equals(first.bytes)).toBe(true)
    // Drawn once on this node: the node logs each reference clip it draws.
    const drawn = node.output().split("\n")
      .filter((line) => line.includes("Reference clip drawn") && line.includes("/1x1-"))
    expect(drawn).toHaveLength(1)
    // A second request answers at once with the same bytes.
    const again = await fetchClip(COMPACT)
    expect(again.status).toBe(200)
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"))
    expect(again.bytes.equals(first.bytes)).toBe(true)
    expect(again.ms).toBeLessThan(Math.max(500, first.ms / 3))
  })

  it("answers 304 to If-None-Match with the etag", async () => {
    const first = await fetchClip(COMPACT)
    const etag = first.headers.get("etag")!
    const cached = await fetchClip(COMPACT, { "if-none-match": etag })
    expect(cached.status).toBe(304)
    expect(cached.bytes.length).toBe(0)
    expect(cached.headers.get("etag")).toBe(etag)
    const stale = await fetchClip(COMPACT, { "if-none-match": "\"0000\"" })
    expect(stale.status).toBe(200)
  })

  it("defaults to the first variant and the newest build", async () => {
    const r = await fetchClip(`/v1/templates/${MARKET}/reference/16x9`)
    expect(r.status, r.bytes.toString("utf8").slice(0, 300)).toBe(200)
    expect(r.headers.get("x-template-version")).toBe("1.1.0")
    expect(r.bytes.subarray(4, 8).toString("latin1")).toBe("ftyp")
  })

  it("refuses a ratio not of the form NxM with 'No such shape'", async () => {
    const r = await ws.api.get(`/v1/templates/${MARKET}/reference/square`)
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe("schema_validation")
    expect(r.body.error.message).toBe("No such shape")
  })

  it("refuses a shape the build does not draw, and unknown templates, variants and builds", async () => {
    const shape = await ws.api.get(`/v1/templates/${MARKET}/reference/16x9?variant=compact`)
    expect(shape.status).toBe(400)
    expect(shape.body.error.code).toBe("ratio_not_supported")
    const odd = await ws.api.get(`/v1/templates/${MARKET}/reference/7x3`)
    expect(odd.body.error.code).toBe("ratio_not_supported")
    for (
      const path of [
        "/v1/templates/tpl_000000000000/reference/1x1",
        `/v1/templates/${MARKET}/reference/1x1?variant=nope`,
        `/v1/templates/${MARKET}/reference/1x1?version=9.9.9`
      ]
    ) {
      const r = await ws.api.get(path)
      expect(r.status, path).toBe(404)
      expect(r.body.error.code).toBe("unknown_template")
    }
    const version = await ws.api.get(`/v1/templates/${MARKET}/reference/1x1?version=1.0`)
    expect(version.status).toBe(400)
  })
})
