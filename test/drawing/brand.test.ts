import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ffmpegPath } from "../../src/drawing/Ffmpeg.js"
import { readMp4Info } from "../../src/drawing/Mp4Info.js"
import { renderClip, renderKeyframe } from "../../src/drawing/Render.js"
import type { BrandMarks, SceneInput } from "../../src/drawing/Scene.js"
import { copyMismatch, joinSegments, normalised } from "../../src/drawing/Splice.js"
import { cleanup, pixels, scene, tmp, writeLogo } from "./fixtures.js"

afterAll(cleanup)

const W = 180
const H = 320
const design = { first: "#0a5c36", second: "#1e3a8a", third: "#f59e0b" }
const logoColour = [255, 0, 255] as const

let dir = ""
const files = { logo: "", intro: "", sound: "", backdrop: "" }

const ffmpeg = (...args: Array<string>) => execFileSync(ffmpegPath(), ["-hide_banner", "-loglevel", "error", ...args])

beforeAll(() => {
  dir = tmp()
  // A 3:1 magenta logo, a 1 s red intro (no audio, other encoder settings), a 3 s sine WAV, a blue backdrop video.
  files.logo = writeLogo(dir)
  files.intro = join(dir, "intro.mp4")
  ffmpeg(
    "-f",
    "lavfi",
    "-i",
    `color=c=red:s=${W}x${H}:r=30`,
    "-t",
    "1",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    "-y",
    files.intro
  )
  files.sound = join(dir, "sound.wav")
  ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-ar", "44100", "-y", files.sound)
  files.backdrop = join(dir, "backdrop.mp4")
  ffmpeg(
    "-f",
    "lavfi",
    "-i",
    "color=c=0x2040c0:s=320x240:r=25",
    "-t",
    "1",
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    "-y",
    files.backdrop
  )
})

const branded = (brand: BrandMarks): SceneInput =>
  scene({
    width: W,
    height: H,
    brand: {
      name: "Acme",
      logoPath: files.logo,
      look: { background: [design.first, design.second], accent: design.third, text: "#fefefe" },
      ...brand
    }
  })

const at = (p: { width: number; data: Uint8ClampedArray }, x: number, y: number) => {
  const i = (y * p.width + x) * 4
  return [p.data[i]!, p.data[i + 1]!, p.data[i + 2]!] as const
}
const near = (a: ReadonlyArray<number>, b: ReadonlyArray<number>, tolerance: number) =>
  a.every((v, i) => Math.abs(v - b[i]!) <= tolerance)
const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))

type Pixels = { width: number; data: Uint8ClampedArray }

/** Pixels within the rectangle that are (close to) the colour. */
const count = (p: Pixels, colour: ReadonlyArray<number>, x0: number, y0: number, x1: number, y1: number) => {
  let n = 0
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (near(at(p, x, y), colour, 24)) n++
  return n
}

describe("a branded render", () => {
  it("prepends the intro, mixes the sound in as AAC and counts the intro in the duration", async () => {
    const out = join(dir, "branded.mp4")
    const cacheDir = join(dir, "cache")
    const input = branded({ intro: { path: files.intro }, soundPath: files.sound })
    const result = await renderClip(input, { outputPath: out, cacheDir })
    expect(result).toMatchObject({ width: W, height: H, frames: 60, durationMs: 2000, joined: "copy" })
    const info = await readMp4Info(out)
    expect(info.durationMs).toBeGreaterThan(1990)
    expect(info.durationMs).toBeLessThan(2060)
    expect(info.faststart).toBe(true)
    expect(info.video).toMatchObject({ codec: "avc1", samples: 60, width: W, height: H, fps: 30 })
    const audio = info.tracks.find((t) => t.kind === "audio")
    expect(audio).toMatchObject({ codec: "mp4a", sampleRate: 48000, channels: 2 })
    expect(audio!.durationMs).toBeGreaterThan(1950)
    // The normalised intro is cached by file hash × size × rate × encoder; a second render reuses it.
    expect(readdirSync(cacheDir).filter((f) => f.startsWith("clip-"))).toHaveLength(1)
    const again = await renderClip(input, { outputPath: join(dir, "again.mp4"), cacheDir })
    expect(again.frames).toBe(60)
    expect(readdirSync(cacheDir).filter((f) => f.startsWith("clip-"))).toHaveLength(1)
    // The first frame is the intro's red, the last the drawn clip.
    const frame = (n: number) => {
      const png = join(dir, `f${n}.png`)
      ffmpeg("-i", out, "-vf", `select=eq(n\\,${n})`, "-frames:v", "1", "-y", png)
      return png
    }
    const first = await pixels(readFileSync(frame(0)))
    expect(near(at(first, W / 2, H / 2), [255, 0, 0], 40)).toBe(true)
    const last = await pixels(readFileSync(frame(59)))
    expect(near(at(last, 1, 1), rgb(design.first), 16)).toBe(true)
  })

  it("draws the brand colours and the logo in its corner within the safe area", async () => {
    const safeArea = { top: 20, right: 10, bottom: 30, left: 10 }
    const png = await renderKeyframe({ ...branded({}), safeArea }, 29)
    const p = await pixels(png)
    expect(near(at(p, 1, 1), rgb(design.first), 12)).toBe(true)
    // The logo sits top left inside the safe area (and the layout's padding), not in the margin.
    expect(count(p, logoColour, 0, 0, W, safeArea.top)).toBe(0)
    expect(count(p, logoColour, safeArea.left, safeArea.top, W / 2, safeArea.top + 40)).toBeGreaterThan(100)
    // The kicker and the progress bar wear the accent (design.third).
    expect(count(p, rgb(design.third), 0, 0, W, H)).toBeGreaterThan(30)
  })

  it("draws a text badge as an accent pill at the top right", async () => {
    const badge = { kind: "text", primaryLine: "LIVE", secondaryLine: "Markets" } as const
    const png = await renderKeyframe(branded({ badge }), 29)
    const p = await pixels(png)
    expect(count(p, rgb(design.third), W / 2, 0, W, 40)).toBeGreaterThan(80)
  })

  it("scales the headline with the brand's heading size", async () => {
    // White pixels: the headline (and the brand name) are the only near-white text in these scenes.
    const white = async (headingScale: number) =>
      count(await pixels(await renderKeyframe(branded({ headingScale }), 29)), [254, 254, 254], 0, 0, W, H)
    expect(await white(1.4)).toBeGreaterThan((await white(0.7)) * 1.3)
  })

  it("draws a video background from its first frame", async () => {
    const input = branded({ background: { kind: "video", path: files.backdrop } })
    const png = await renderKeyframe(input, 29, undefined, join(dir, "stills"))
    expect(readdirSync(join(dir, "stills")).filter((f) => f.endsWith(".png"))).toHaveLength(1)
    const p = await pixels(png)
    expect(near(at(p, 1, 1), [0x20, 0x40, 0xc0], 20)).toBe(true)
  })
})

describe("joining intro and outro", () => {
  it("mixes an MP3 in under a clip without intro or outro, cut to the clip's length", async () => {
    const mp3 = join(dir, "sound.mp3")
    ffmpeg("-f", "lavfi", "-i", "sine=frequency=330:duration=0.4", "-c:a", "libmp3lame", "-y", mp3)
    const out = join(dir, "mp3.mp4")
    const options = { outputPath: out, cacheDir: join(dir, "c2") }
    const result = await renderClip(scene({ brand: { soundPath: mp3 } }), options)
    expect(result.durationMs).toBe(1000)
    expect(result.joined).toBeUndefined()
    const info = await readMp4Info(out)
    expect(info.video?.samples).toBe(30)
    // A short sound loops to the clip's length.
    expect(info.tracks.find((t) => t.kind === "audio")?.durationMs).toBeGreaterThan(990)
  })

  it("re-encodes in one pass when the segments' parameter sets differ", async () => {
    const cacheDir = join(dir, "c3")
    const target = { width: W, height: H, fps: 30 }
    const encoder = (preset: string) => ({ codec: "libx264", preset, crf: 23 })
    const [veryfast, ultrafast] = [encoder("veryfast"), encoder("ultrafast")]
    const a = await normalised({ path: files.intro }, target, veryfast, cacheDir)
    const b = await normalised({ path: files.intro }, target, ultrafast, cacheDir)
    expect(copyMismatch(await Promise.all([a, b].map((p) => readMp4Info(p))))).toBeDefined()
    const out = join(dir, "mixed.mp4")
    const method = await joinSegments([a, b], out, target, veryfast)
    expect(method).toBe("encode")
    const info = await readMp4Info(out)
    expect(info.video?.samples).toBe(60)
    expect(info.tracks.some((t) => t.kind === "audio")).toBe(true)
  })
})

describe("copyMismatch", () => {
  it("accepts equal parameter sets and names a differing segment", () => {
    const info = (record: string) => ({
      durationMs: 1000,
      timescale: 1000,
      faststart: true,
      tracks: [],
      video: {
        handler: "vide",
        kind: "video" as const,
        codec: "avc1",
        timescale: 15360,
        durationMs: 1000,
        samples: 30,
        width: W,
        height: H,
        fps: 30,
        avc: { profile: 100, profileName: "High", level: 13, record }
      }
    })
    expect(copyMismatch([info("01"), info("01")])).toBeUndefined()
    expect(copyMismatch([info("01"), info("02")])).toContain("segment 2")
  })
})
