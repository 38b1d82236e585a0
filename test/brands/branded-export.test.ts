import { createCanvas, loadImage } from "@napi-rs/canvas"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ffmpegPath } from "../../src/drawing/Ffmpeg.js"
import { readMp4Info } from "../../src/drawing/Mp4Info.js"
import { workspaceWithKey } from "../support/Client.js"
import { compactExample, videoBody, waitForExport } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"
import { readZip } from "../support/ZipRead.js"

let ws: Awaited<ReturnType<typeof workspaceWithKey>>
let example: Record<string, unknown>
let brandId = ""
const dir = mkdtempSync(join(tmpdir(), "clipwright-branded-"))
const design = { first: "#0A5C36", second: "#1E3A8A", third: "#F59E0B", fourth: "#111827" }
const safe = { top: 90, right: 70, bottom: 110, left: 70 }

const ffmpeg = (...args: Array<string>) => execFileSync(ffmpegPath(), ["-hide_banner", "-loglevel", "error", ...args])

const upload = async (path: string, name: string, bytes: Buffer, type: string) => {
  const form = new FormData()
  form.append("file", new Blob([bytes], { type }), name)
  const r = await fetch(`${node.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${ws.apiKey}` },
    body: form
  })
  const text = await r.text()
  return { status: r.status, text, body: text === "" ? undefined : JSON.parse(text) }
}

const rgbAt = (data: Uint8ClampedArray, width: number, x: number, y: number) => {
  const i = (y * width + x) * 4
  return [data[i]!, data[i + 1]!, data[i + 2]!]
}
const near = (a: ReadonlyArray<number>, b: ReadonlyArray<number>, t: number) =>
  a.every((v, i) => Math.abs(v - b[i]!) <= t)
const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
})

const { node } = useNode({ label: "branded_export" })

beforeAll(async () => {
  ws = await workspaceWithKey(node)
  example = await compactExample(ws.api)
  const created = await ws.api.post("/v1/brands", {
    name: "Acme",
    style: {
      design,
      text: { primary: { color: "#FFFFFF" }, secondary: { color: "#E5E7EB" } },
      safeAreas: { "1x1": safe }
    }
  })
  expect(created.status, created.text).toBe(201)
  brandId = created.body.brand.id
  // A magenta 3:1 logo, a 1 s red intro at half the output size, a 3 s sine WAV: all through the brand slots.
  const logo = createCanvas(300, 100)
  const ctx = logo.getContext("2d")
  ctx.fillStyle = "#FF00FF"
  ctx.fillRect(0, 0, 300, 100)
  const intro = join(dir, "intro.mp4")
  ffmpeg("-f", "lavfi", "-i", "color=c=red:s=540x540:r=30", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", intro)
  const sound = join(dir, "sound.wav")
  ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-ar", "44100", sound)
  for (
    const [slot, name, bytes, type] of [
      ["logo", "acme-logo.png", logo.toBuffer("image/png"), "image/png"],
      ["intro-1x1", "acme-intro.mp4", readFileSync(intro), "video/mp4"],
      ["sound", "acme-sound.wav", readFileSync(sound), "audio/wav"]
    ] as const
  ) {
    const r = await upload(`/v1/brands/${brandId}/assets/${slot}`, name, bytes, type)
    expect(r.status, r.text).toBe(201)
  }
}, 60_000)

describe("direct export with a brand", () => {
  it("draws an MP4 longer by the intro, with AAC sound, and records the brand in the package", async () => {
    const started = await ws.api.post("/v1/direct-export/video", videoBody(example, { brandId }))
    expect(started.status, started.text).toBe(202)
    const done = await waitForExport(ws.api, started.body.jobId)
    expect(done).toMatchObject({ status: "succeeded", error: null })
    const download = await fetch(`${node.url}/v1/direct-export/video/${started.body.jobId}/download`, {
      headers: { authorization: `Bearer ${ws.apiKey}` }
    })
    expect(download.status).toBe(200)
    const file = join(dir, "branded.mp4")
    writeFileSync(file, Buffer.from(await download.arrayBuffer()))
    const info = await readMp4Info(file)
    // The compact build is 6 s (180 frames); the intro adds 1 s.
    expect(info.video).toMatchObject({ samples: 210, width: 1080, height: 1080 })
    expect(info.durationMs).toBeGreaterThan(6990)
    expect(info.durationMs).toBeLessThan(7060)
    expect(info.tracks.find((t) => t.kind === "audio")).toMatchObject({ codec: "mp4a", sampleRate: 48000 })
    const queue = await ws.api.get("/v1/direct-export/queue")
    const entry = queue.body.exports.find((e: { jobId: string }) => e.jobId === started.body.jobId)
    expect(entry).toMatchObject({ brandId, brandName: "Acme", durationMs: 7000 })
    const pkg = await ws.api.get(`/v1/render-jobs/${started.body.jobId}/package`)
    expect(pkg.body.package.brand).toEqual({ id: brandId, name: "Acme" })
  }, 120_000)

  it("draws a keyframe in the brand's colours with the logo inside the brand's safe area", async () => {
    const r = await fetch(`${node.url}/v1/direct-export/keyframes`, {
      method: "POST",
      headers: { authorization: `Bearer ${ws.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(videoBody(example, { brandId, frames: [{ name: "end", frame: 179 }] }))
    })
    expect(r.status).toBe(200)
    const [png] = readZip(Buffer.from(await r.arrayBuffer()))
    const img = await loadImage(png!.data)
    const canvas = createCanvas(img.width, img.height)
    const ctx = canvas.getContext("2d")
    ctx.drawImage(img, 0, 0)
    const { data, width } = ctx.getImageData(0, 0, img.width, img.height)
    // The gradient starts at design.first in the top left corner.
    expect(near(rgbAt(data, width, 2, 2), rgb(design.first), 10)).toBe(true)
    let logo = 0
    let outside = 0
    for (let y = 0; y < 400; y++) {
      for (let x = 0; x < 540; x++) {
        if (!near(rgbAt(data, width, x, y), [255, 0, 255], 20)) continue
        if (x >= safe.left && y >= safe.top) logo++
        else outside++
      }
    }
    expect(logo).toBeGreaterThan(5000)
    expect(outside).toBe(0)
  }, 60_000)

  it("refuses a brand that is missing or another workspace's with 404 naming /brandId", async () => {
    const other = await workspaceWithKey(node)
    const theirs = (await other.api.post("/v1/brands", { name: "Theirs" })).body.brand.id
    for (const id of ["brd_missing", theirs]) {
      const r = await ws.api.post("/v1/direct-export/video", videoBody(example, { brandId: id }))
      expect(r.status).toBe(404)
      expect(r.body.error.code).toBe("not_found")
      expect(r.body.error.details.map((d: { path: string }) => d.path)).toEqual(["/brandId"])
    }
  })

  it("draws pictures from the media library by id or name and refuses a missing one naming the field", async () => {
    const withPicture = (url: string) => ({
      ...example,
      clipData: { ...(example["clipData"] as object), images: [{ url, alt: "Logo" }] }
    })
    const missing = await ws.api.post("/v1/direct-export/video", videoBody(withPicture("media://nope.png")))
    expect(missing.status).toBe(400)
    expect(missing.body.error.code).toBe("schema_validation")
    expect(missing.body.error.details.map((d: { path: string }) => d.path)).toEqual(["/data/clipData/images/0/url"])
    const web = await ws.api.post("/v1/direct-export/video", videoBody(withPicture("https://example.com/a.png")))
    expect(web.status).toBe(400)
    const files = (await ws.api.get("/v1/media")).body.files as Array<{ id: string; name: string }>
    const logo = files.find((f) => f.name === "acme-logo.png")!
    for (const url of [`media://${logo.id}`, "media://acme-logo.png"]) {
      const body = videoBody(withPicture(url), { frames: [{ name: "a", frame: 0 }] })
      const r = await ws.api.post("/v1/direct-export/keyframes", body)
      expect(r.status, r.text).toBe(200)
    }
  }, 60_000)
})
