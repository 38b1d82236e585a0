import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { query } from "../support/Database.js"
import { compactExample, videoBody, waitForExport } from "../support/Exports.js"
import { png } from "../support/MediaFiles.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"
import { upload } from "../support/Uploads.js"

const { db, node, workspace: ws } = useNode({ label: "errors_checksum", workspace: { name: "Damaged disk" } })

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

const fetchBytes = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${ws.apiKey}`, ...headers } })
  const bytes = new Uint8Array(await response.arrayBuffer())
  const text = Buffer.from(bytes).toString("utf8")
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: response.status, headers: response.headers, body, text, bytes }
}

/** Flips one byte of a stored file in place, as a failing disk would: same size, same name. */
const damage = (blobKey: string, at: number) => {
  const file = path.join(node.dataDir, "blobs", blobKey)
  const handle = fs.openSync(file, "r+")
  try {
    const byte = Buffer.alloc(1)
    fs.readSync(handle, byte, 0, 1, at)
    fs.writeSync(handle, Buffer.from([byte[0]! ^ 0xff]), 0, 1, at)
  } finally {
    fs.closeSync(handle)
  }
}

describe("checksum_mismatch", () => {
  it("a media file whose stored bytes no longer match its sha256 is 502 on its preview, never the wrong bytes", async () => {
    const bytes = png(64, 48)
    const uploaded = await upload(`${node.url}/v1/media`, ws.apiKey, { bytes, name: "square.png" })
    expect(uploaded.status, uploaded.text).toBe(201)
    const file = (uploaded.body as { file: { id: string; url: string } }).file
    const [row] = await query<{ blob_key: string; sha256: string }>(
      db.url,
      "SELECT blob_key, sha256 FROM media_files WHERE id = $1",
      [file.id]
    )
    expect(row!.sha256).toBe(sha256(bytes))

    const intact = await fetchBytes(file.url)
    expect(intact.status).toBe(200)
    expect(sha256(intact.bytes)).toBe(row!.sha256)

    damage(row!.blob_key, 30)
    const damaged = await fetchBytes(file.url)
    const error = expectError(damaged, 502, "checksum_mismatch")
    expect(error.message).toContain(file.id)
    expect(damaged.headers.get("content-type")).toContain("json")
    expect(node.output()).toContain("Stored file does not match its recorded sha256")
  })

  it("an exported video damaged on disk is 502 on download, range, link, zip and asset URL, and served again once repaired", async () => {
    const example = await compactExample(ws.api)
    const started = await ws.api.post("/v1/direct-export/video", videoBody(example))
    expect(started.status, started.text).toBe(202)
    const jobId = started.body.jobId as string
    expect((await waitForExport(ws.api, jobId)).status).toBe("succeeded")
    const download = `${node.url}/v1/direct-export/video/${jobId}/download`

    const whole = await fetchBytes(download)
    expect(whole.status, whole.text.slice(0, 300)).toBe(200)
    const [clip] = await query<{ id: string; blob_key: string; sha256: string }>(
      db.url,
      "SELECT c.id, c.blob_key, c.sha256 FROM exports e JOIN clips c ON c.id = e.clip_id WHERE e.id = $1",
      [jobId]
    )
    expect(sha256(whole.bytes)).toBe(clip!.sha256)
    const link = (await ws.api.post(`/v1/direct-export/video/${jobId}/link`)).body.url as string
    const asset = (await ws.api.get(`/v1/assets/${clip!.id}`)).body.url as string
    expect((await fetchBytes(asset, { range: "bytes=0-99" })).status).toBe(206)

    damage(clip!.blob_key, Math.floor(whole.bytes.length / 2))
    expectError(await fetchBytes(download), 502, "checksum_mismatch")
    expectError(await fetchBytes(download, { range: "bytes=0-99" }), 502, "checksum_mismatch")
    expectError(await fetchBytes(link), 502, "checksum_mismatch")
    expectError(await fetchBytes(asset, { range: "bytes=0-99" }), 502, "checksum_mismatch")
    expectError(await ws.api.post("/v1/direct-export/zip", { jobIds: [jobId] }), 502, "checksum_mismatch")

    damage(clip!.blob_key, Math.floor(whole.bytes.length / 2))
    const repaired = await fetchBytes(download)
    expect(repaired.status).toBe(200)
    expect(sha256(repaired.bytes)).toBe(clip!.sha256)
  })
})
