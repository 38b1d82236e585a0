import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { query } from "../support/Database.js"
import { MARKET } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"

/** An encoder that refuses every job, as a broken ffmpeg installation would (FFMPEG_PATH names the encoder). */
const refusingEncoder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-broken-ffmpeg-"))
  const file = path.join(dir, "ffmpeg")
  fs.writeFileSync(file, "#!/bin/sh\necho 'ffmpeg: encoder unavailable' >&2\nexit 1\n", { mode: 0o755 })
  return file
}

const { db, node, workspace: ws } = useNode({
  label: "errors_service_faults",
  env: { FFMPEG_PATH: refusingEncoder() },
  workspace: { name: "Faults" }
})

describe("faults on the service's side", () => {
  it("render_failed: a reference clip the renderer cannot encode is 502, without the encoder's words", async () => {
    const r = await ws.api.get(`/v1/templates/${MARKET}/reference/1x1`)
    const error = expectError(r, 502, "render_failed")
    expect(error.message).not.toContain("encoder unavailable")
    expect(error.message).not.toContain("ffmpeg")
  })

  it("internal: a store that fails under a request is 500 with no SQL, stack or secret, and the node serves on", async () => {
    expect((await ws.api.get("/v1/streams")).status).toBe(200)
    await query(db.url, "ALTER TABLE streams RENAME TO streams_away")
    try {
      const r = await ws.api.get("/v1/streams")
      const error = expectError(r, 500, "internal")
      expect(r.text).not.toMatch(/streams_away|relation|SELECT|postgres|SqlError/i)
      expect(r.text).not.toContain(ws.apiKey)
      expect(r.text).not.toContain(node.adminToken)
      expect(error.details).toEqual([])
    } finally {
      await query(db.url, "ALTER TABLE streams_away RENAME TO streams")
    }
    expect((await ws.api.get("/v1/streams")).status).toBe(200)
    expect((await fetch(`${node.url}/health`)).status).toBe(200)
  })
})
