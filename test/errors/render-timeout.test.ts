import { execFileSync } from "node:child_process"
import { beforeAll, describe, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { compactExample, videoBody, waitForExport } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"

/** Far below what drawing any clip or keyframe takes (starting the drawer process alone takes longer). */
const LIMIT_SECONDS = "0.05"

let ws: Awaited<ReturnType<typeof workspaceWithKey>>
let example: Record<string, unknown>

const { node } = useNode({ label: "errors_render_timeout", env: { RENDER_TIMEOUT_SECONDS: LIMIT_SECONDS } })

beforeAll(async () => {
  ws = await workspaceWithKey(node, ["*"], "Slow renders")
  example = await compactExample(ws.api)
})

/** The processes the node started that are still running (drawer, ffmpeg); `ps` exits 1 when there are none. */
const childrenOf = (pid: number): Array<string> => {
  try {
    return execFileSync("ps", ["-o", "comm=", "--ppid", String(pid)], { encoding: "utf8" }).split("\n").filter(Boolean)
  } catch {
    return []
  }
}

describe("render_timeout", () => {
  it("an export past the render time limit ends timed_out; its video and link are 504, nothing counted", async () => {
    const started = await ws.api.post("/v1/direct-export/video", videoBody(example))
    expect(started.status, started.text).toBe(202)
    const jobId = started.body.jobId as string

    const finished = await waitForExport(ws.api, jobId)
    expect(finished).toMatchObject({ status: "timed_out", renderer: "TIMED_OUT" })
    expect(finished.error).toContain("time limit of 0.05 s")

    const download = expectError(await ws.api.get(`/v1/direct-export/video/${jobId}/download`), 504, "render_timeout")
    expect(download.message).toContain(jobId)
    expectError(await ws.api.post(`/v1/direct-export/video/${jobId}/link`), 504, "render_timeout")

    expect((await ws.api.get("/v1/renders/quota")).body.quota.used).toBe(0)
    // The stopped attempts took their drawer (a node process) and ffmpeg with them.
    expect(childrenOf(node.process.pid!).filter((name) => name === "node" || name === "ffmpeg")).toEqual([])
  })

  it("keyframes not drawn within the limit are 504 render_timeout", async () => {
    const r = await ws.api.post(
      "/v1/direct-export/keyframes",
      videoBody(example, { frames: [{ name: "first", frame: 0 }] })
    )
    const error = expectError(r, 504, "render_timeout")
    expect(error.message).toContain("0.05 s")
  })
})
