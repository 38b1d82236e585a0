import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ffmpegPath } from "../../src/drawing/Ffmpeg.js"
import { readMp4Info } from "../../src/drawing/Mp4Info.js"
import { renderClip } from "../../src/drawing/Render.js"
import type { BrandMarks, SceneInput } from "../../src/drawing/Scene.js"
import { cleanup, pixels, scene, tmp, writeLogo } from "./fixtures.js"

afterAll(cleanup)

const W = 180
const H = 320
const red = [255, 0, 0] as const
const blue = [0, 0, 255] as const
const magenta = [255, 0, 255] as const
const yellow = [255, 255, 0] as const
const cyan = [0, 255, 255] as const

let dir = ""
const files = { logo: "", backdrop: "", badge: "", intro: "" }

const ffmpeg = (...args: Array<string>) => execFileSync(ffmpegPath(), ["-hide_banner", "-loglevel", "error", ...args])

/** A clip of `seconds` that shows `first` for its first half and `second` for the other, at another size and rate. */
const twoColours = (out: string, first: string, second: string, size: string, seconds: number) =>
  ffmpeg(
    "-f",
    "lavfi",
    "-i",
    `color=c=${first}:s=${size}:r=25:d=${seconds / 2}`,
    "-f",
    "lavfi",
    "-i",
    `color=c=${second}:s=${size}:r=25:d=${seconds / 2}`,
    "-filter_complex",
    "[0:v][1:v]concat=n=2:v=1:a=0",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    "-y",
    out
  )

beforeAll(() => {
  dir = tmp()
  files.logo = writeLogo(dir)
  // Red for 0.5 s, then blue for 0.5 s: looped under a 2 s clip, red again from 1 s on.
  files.backdrop = join(dir, "backdrop.mp4")
  twoColours(files.backdrop, "red", "blue", "240x200", 1)
  // Yellow, then cyan: a 2:1 badge.
  files.badge = join(dir, "badge.mp4")
  twoColours(files.badge, "yellow", "cyan", "120x60", 1)
  files.intro = join(dir, "intro.mp4")
  ffmpeg(
    "-f",
    "lavfi",
    "-i",
    `color=c=green:s=${W}x${H}:r=30`,
    "-t",
    "0.5",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    "-y",
    files.intro
  )
})

const branded = (brand: BrandMarks): SceneInput =>
  scene({ width: W, height: H, frames: 60, brand: { name: "Acme", logoPath: files.logo, ...brand } })

type Pixels = { width: number; data: Uint8ClampedArray }

const at = (p: Pixels, x: number, y: number) => {
  const i = (y * p.width + x) * 4
  return [p.data[i]!, p.data[i + 1]!, p.data[i + 2]!] as const
}
const near = (a: ReadonlyArray<number>, b: ReadonlyArray<number>, tolerance: number) =>
  a.every((v, i) => Math.abs(v - b[i]!) <= tolerance)
const count = (p: Pixels, colour: ReadonlyArray<number>, x0: number, y0: number, x1: number, y1: number) => {
  let n = 0
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (near(at(p, x, y), colour, 40)) n++
  return n
}

/** Frame n (0-based) of an MP4, decoded to pixels. */
const frameOf = async (mp4: string, n: number): Promise<Pixels> => {
  const png = join(dir, `frame-${n}.png`)
  ffmpeg("-i", mp4, "-vf", `select=eq(n\\,${n})`, "-vsync", "0", "-frames:v", "1", "-y", png)
  return pixels(readFileSync(png))
}

describe("a video background", () => {
  it("moves under the drawn content: its colours change between frames, the clip's length stays exact", async () => {
    const out = join(dir, "moving.mp4")
    const input = branded({ background: { kind: "video", path: files.backdrop } })
    const result = await renderClip(input, { outputPath: out, cacheDir: join(dir, "cache") })
    expect(result).toMatchObject({ width: W, height: H, frames: 60, durationMs: 2000 })
    const info = await readMp4Info(out)
    expect(info.video).toMatchObject({ codec: "avc1", samples: 60, width: W, height: H, fps: 30 })
    expect(info.faststart).toBe(true)
    // Background corner (no content there) at 0.17 s, 0.67 s, 1.33 s and 1.67 s: red, blue, red (looped), blue.
    const frames = await Promise.all([5, 20, 40, 50].map((n) => frameOf(out, n)))
    const corners = frames.map((p) => at(p, 3, 3))
    expect(near(corners[0]!, corners[1]!, 48)).toBe(false)
    expect(near(corners[0]!, red, 48)).toBe(true)
    expect(near(corners[1]!, blue, 48)).toBe(true)
    expect(near(corners[2]!, red, 48)).toBe(true)
    expect(near(corners[3]!, blue, 48)).toBe(true)
    // The video fills the whole frame (cover fit): the opposite corner too.
    expect(near(at(frames[1]!, W - 4, H - 12), blue, 48)).toBe(true)
    // The content is still drawn over it: the logo fading in at 0.17 s, then whole.
    expect(count(frames[0]!, magenta, 0, 0, W / 2, 60)).toBeGreaterThan(0)
    for (const p of frames.slice(1)) expect(count(p, magenta, 0, 0, W / 2, 60)).toBeGreaterThan(250)
  })

  it("joins an intro and mixes in sound, frame counts exact", async () => {
    const out = join(dir, "joined.mp4")
    const sound = join(dir, "sound.wav")
    ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-y", sound)
    const background = { kind: "video", path: files.backdrop } as const
    const input = branded({ background, intro: { path: files.intro }, soundPath: sound })
    const result = await renderClip(input, { outputPath: out, cacheDir: join(dir, "cache") })
    expect(result).toMatchObject({ frames: 75, joined: "copy" })
    const info = await readMp4Info(out)
    expect(info.video?.samples).toBe(75)
    expect(info.tracks.some((t) => t.kind === "audio")).toBe(true)
    const [intro, clip] = await Promise.all([0, 15 + 20].map((n) => frameOf(out, n)))
    expect(near(at(intro!, W / 2, H / 2), [0, 128, 0], 48)).toBe(true)
    expect(near(at(clip!, 3, 3), blue, 48)).toBe(true)
  })

  it("an unreadable video falls back to the colour background", async () => {
    const broken = join(dir, "broken.mp4")
    writeFileSync(broken, "not a video")
    const out = join(dir, "fallback.mp4")
    const result = await renderClip(branded({ background: { kind: "video", path: broken } }), { outputPath: out })
    expect(result.frames).toBe(60)
    // The look's gradient starts at #0f172a in the top left corner.
    expect(near(at(await frameOf(out, 40), 1, 1), [0x0f, 0x17, 0x2a], 16)).toBe(true)
  })
})

describe("a video badge", () => {
  /** Pixels of the colour in the right half of the brand row, where the badge sits (a 20×10 box at this size). */
  const inBadge = (p: Pixels, colour: ReadonlyArray<number>) => count(p, colour, W / 2, 0, W, 60)

  it("plays in its box over a colour background", async () => {
    const out = join(dir, "badge-clip.mp4")
    const result = await renderClip(branded({ badge: { kind: "video", path: files.badge } }), { outputPath: out })
    expect(result).toMatchObject({ width: W, height: H, frames: 60 })
    expect((await readMp4Info(out)).video?.samples).toBe(60)
    // 1.33 s: yellow (second loop), 1.67 s: cyan; both after the entrance animations, in the still tail.
    const [a, b] = await Promise.all([40, 50].map((n) => frameOf(out, n)))
    expect(inBadge(a!, yellow)).toBeGreaterThan(120)
    expect(inBadge(a!, cyan)).toBe(0)
    expect(inBadge(b!, cyan)).toBeGreaterThan(120)
    expect(inBadge(b!, yellow)).toBe(0)
  })

  it("plays over a video background", async () => {
    const out = join(dir, "both.mp4")
    const input = branded({
      badge: { kind: "video", path: files.badge },
      background: { kind: "video", path: files.backdrop }
    })
    expect((await renderClip(input, { outputPath: out })).frames).toBe(60)
    const [a, b] = await Promise.all([40, 50].map((n) => frameOf(out, n)))
    expect(inBadge(a!, yellow)).toBeGreaterThan(120)
    expect(inBadge(b!, cyan)).toBeGreaterThan(120)
    expect(near(at(a!, 3, 3), red, 48)).toBe(true)
    expect(near(at(b!, 3, 3), blue, 48)).toBe(true)
  })
})
