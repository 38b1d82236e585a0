import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { ffmpegPath } from "../../src/drawing/Ffmpeg.js"
import { renderClip, renderKeyframe } from "../../src/drawing/Render.js"
import { cleanup, pixels, scene, tmp } from "./fixtures.js"

afterAll(cleanup)

type Pixels = Awaited<ReturnType<typeof pixels>>

/** Frame n (0-based) of an MP4 as pixels. */
const frameOf = async (mp4: string, n: number, dir: string): Promise<Pixels> => {
  const png = join(dir, `frame-${n}.png`)
  execFileSync(ffmpegPath(), [
    "-hide_banner",
    "-loglevel",
    "error",
    "-i",
    mp4,
    "-vf",
    `select=eq(n\\,${n})`,
    "-vsync",
    "0",
    "-frames:v",
    "1",
    "-y",
    png
  ])
  return pixels(readFileSync(png))
}

/** Columns of the bottom rows that wear the accent (#38bdf8): the progress bar's filled length. */
const barLength = (p: Pixels) => {
  let best = 0
  for (let y = Math.floor(p.height * 0.8); y < p.height; y++) {
    let n = 0
    for (let x = 0; x < p.width; x++) {
      const i = (y * p.width + x) * 4
      const [r, g, b] = [p.data[i]!, p.data[i + 1]!, p.data[i + 2]!]
      if (Math.abs(r - 0x38) < 40 && Math.abs(g - 0xbd) < 40 && Math.abs(b - 0xf8) < 40) n++
    }
    best = Math.max(best, n)
  }
  return best
}

/** Pixels whose red, green or blue differ by more than 40 between two pictures of one size. */
const differing = (a: Pixels, b: Pixels) => {
  let n = 0
  for (let i = 0; i < a.data.length; i += 4) {
    if ([0, 1, 2].some((c) => Math.abs(a.data[i + c]! - b.data[i + c]!) > 40)) n++
  }
  return n
}

describe("the still tail ffmpeg makes from the drawer's two stills", () => {
  const input = scene({ width: 320, height: 568, frames: 90 })

  it("looks like the frames the drawer draws itself, the progress bar growing to the end", async () => {
    const dir = tmp()
    const out = join(dir, "clip.mp4")
    const result = await renderClip(input, { outputPath: out })
    expect(result.frames).toBe(90)
    const lengths: Array<number> = []
    for (const n of [60, 75, 89]) {
      const [encoded, drawn] = [await frameOf(out, n, dir), await pixels(await renderKeyframe(input, n))]
      const [got, want] = [barLength(encoded), barLength(drawn)]
      // The bar's length is barFill's; x264's quick motion search may leave its edge a frame behind (3.2 px here).
      expect(Math.abs(got - want)).toBeLessThanOrEqual(7)
      // Everything else is the finished scene: only compression noise differs.
      expect(differing(encoded, drawn)).toBeLessThan(encoded.width * encoded.height * 0.01)
      lengths.push(got)
    }
    expect(lengths[0]!).toBeLessThan(lengths[1]!)
    expect(lengths[1]!).toBeLessThan(lengths[2]!)
  })
})
