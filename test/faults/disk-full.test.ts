import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type DataVolume, mountDataVolume } from "../../bench/support/DataVolume.js"
import { workspaceWithKey } from "../support/Client.js"
import { compactExample, videoBody, waitForExport } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"
import { until } from "../support/Until.js"

let volume: DataVolume

beforeAll(() => {
  // DATA_DIR on a small volume of its own (a tmpfs; the test runs as root, as CI does), so filling it fills nothing else.
  volume = mountDataVolume(fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-disk-full-")), 64)
})

afterAll(() => {
  volume?.remove()
})

const { node } = useNode({ label: "disk_full", dataDir: () => volume.path })

describe("DATA_DIR full during a render", () => {
  // Found by `npm run faults` (DATA_DIR full 20 s): every render drawn while the disk was full failed at once, its
  // one retry too, and took every job waiting on it to RENDER_FAILED for what frees up in a minute.
  it("the render waits for room and finishes once there is some", async () => {
    const ws = await workspaceWithKey(node, ["*"], "Disk full")
    const data = await compactExample(ws.api)
    volume.fill()
    try {
      const started = await ws.api.post("/v1/direct-export/video", videoBody(data))
      expect(started.status, started.text).toBe(202)
      await until("the render meeting the full disk", () => node.output().includes("Render waits for room"), 30_000)
      const meanwhile = await ws.api.get(`/v1/direct-export/video/${started.body.jobId}`)
      expect(meanwhile.body.status).toBe("rendering")
      volume.unfill()
      const done = await waitForExport(ws.api, started.body.jobId, 60_000)
      expect(done.status).toBe("succeeded")
    } finally {
      volume.unfill()
    }
  }, 90_000)
})
