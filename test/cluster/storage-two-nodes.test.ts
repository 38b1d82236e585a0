import * as crypto from "node:crypto"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { listFiles } from "../storage/helpers.js"
import { type S3Harness, startS3 } from "../storage/S3Harness.js"
import { client, OWNER_EMAIL, workspaceWithKey } from "../support/Client.js"
import { compactExample, videoBody, waitForExport } from "../support/Exports.js"
import { marketStreamWithChannel, sendMarketEvent, settledJobs } from "../support/Jobs.js"
import { png } from "../support/MediaFiles.js"
import type { TestNode } from "../support/Node.js"
import { useNodes } from "../support/Rig.js"
import { upload } from "../support/Uploads.js"

// Two machines' worth of folders: each node its own DATA_DIR, one PostgreSQL and one S3-compatible store (s3rver on
// loopback). Node A has no render slots, so every render is drawn on B; whatever B stores, A serves, and the other way.
let s3: S3Harness

const scopes = ["*"]
const sha256 = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex")
const local = (url: string) => {
  const u = new URL(url)
  return `${u.pathname}${u.search}`
}
const bytesAt = async (node: TestNode, pathAndQuery: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${node.url}${pathAndQuery}`, { headers })
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
}

beforeAll(async () => {
  s3 = await startS3("two-nodes")
  return () => s3.close()
}, 180_000)

const { db, nodes: [a, b] } = useNodes({
  label: "storage_two_nodes",
  count: 2,
  env: (index) => ({ ...s3.env("shared"), RENDER_SLOTS: String(index) })
})

describe("two nodes, different DATA_DIRs, one object store", () => {
  it("a file uploaded through one node downloads from the other; with the store down, 503", async () => {
    const ws = await workspaceWithKey(a, scopes, "Two folders")
    const bytes = png(64, 48)
    const up = await upload(`${a.url}/v1/media`, ws.apiKey, { bytes, name: "logo.png", type: "image/png" })
    expect(up.status, up.text).toBe(201)
    const listed = (await client(b, ws.apiKey).get("/v1/media")).body.files as Array<{ id: string; url: string }>
    const file = listed.find((f) => f.id === up.body.file.id)!
    const got = await bytesAt(b, local(file.url))
    expect(got.status).toBe(200)
    expect(sha256(got.bytes)).toBe(sha256(bytes))
    expect(listFiles(path.join(a.dataDir, "blobs"))).toEqual([])

    // The store down: asking for the file is 503 with a retry hint (never a 500, never a hang); back up, it is served.
    await s3.stop()
    try {
      const down = await fetch(`${b.url}${local(file.url)}`)
      expect(down.status).toBe(503)
      expect(down.headers.get("retry-after")).toBe("5")
      expect(await down.json()).toMatchObject({ error: { code: "upstream_unavailable", retryAfterSeconds: 5 } })
      const upload503 = await upload(`${a.url}/v1/media`, ws.apiKey, { bytes, name: "again.png", type: "image/png" })
      expect(upload503.status, upload503.text).toBe(503)
    } finally {
      await s3.start()
    }
    expect((await bytesAt(b, local(file.url))).status).toBe(200)
  }, 60_000)

  it(
    "a render drawn on the node with slots is handed over, and its asset link is served by the node without",
    async () => {
      const { api, apiKey } = await workspaceWithKey(a, scopes, "Handed over", OWNER_EMAIL)
      const streamId = await marketStreamWithChannel(api)
      const ingestEventId = await sendMarketEvent(api, streamId)
      const [job] = await settledJobs<{ status: string }>(db.url, "ingest_event_id = $1", [ingestEventId], 240_000)
      expect(job?.status).toBe("PUBLISHED")
      const posts = (await client(a, apiKey).get("/v1/posts")).body.posts as Array<{ assets: Array<{ url: string }> }>
      const asset = posts[0]!.assets[0]!
      const whole = await bytesAt(a, local(asset.url))
      expect(whole.status).toBe(200)
      expect(whole.headers.get("content-type")).toBe("video/mp4")
      expect(whole.bytes.length).toBeGreaterThan(1000)
      const part = await bytesAt(a, local(asset.url), { range: "bytes=100-199" })
      expect(part.status).toBe(206)
      expect(sha256(part.bytes)).toBe(sha256(whole.bytes.subarray(100, 200)))
      // Drawn on B, kept in the bucket: neither node's folder holds the clip.
      expect(listFiles(path.join(a.dataDir, "blobs")).filter((f) => f.startsWith("clips"))).toEqual([])
      expect(listFiles(path.join(b.dataDir, "blobs")).filter((f) => f.startsWith("clips"))).toEqual([])
    },
    300_000
  )

  it("a direct export asked of one node downloads from the other; the brand's logo is read from a copy", async () => {
    const { api, apiKey } = await workspaceWithKey(a, scopes, "Export across")
    // The logo goes into the bucket through A; B draws with it from a temporary copy, removed once drawn.
    const brandId = (await api.post("/v1/brands", { name: "Acme" })).body.brand.id as string
    const logo = await upload(`${a.url}/v1/brands/${brandId}/assets/logo`, apiKey, {
      bytes: png(300, 100),
      name: "logo.png",
      type: "image/png"
    })
    expect(logo.status, logo.text).toBe(201)
    const started = await api.post("/v1/direct-export/video", videoBody(await compactExample(api), { brandId }))
    expect(started.status, started.text).toBe(202)
    const jobId = started.body.jobId as string
    expect((await waitForExport(client(b, apiKey), jobId, 240_000)).status).toBe("succeeded")
    const download = await bytesAt(b, `/v1/direct-export/video/${jobId}/download`, {
      authorization: `Bearer ${apiKey}`
    })
    expect(download.status).toBe(200)
    expect(download.bytes.length).toBeGreaterThan(1000)
    const again = await bytesAt(a, `/v1/direct-export/video/${jobId}/download`, { authorization: `Bearer ${apiKey}` })
    expect(sha256(again.bytes)).toBe(sha256(download.bytes))
    expect(listFiles(path.join(b.dataDir, "tmp", "blobs"))).toEqual([])
    expect(listFiles(path.join(b.dataDir, "blobs")).filter((f) => !f.startsWith(".tmp"))).toEqual([])
  }, 300_000)
})
