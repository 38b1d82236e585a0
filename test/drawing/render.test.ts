import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { LocaleNotSupported } from "../../src/domain/Errors.js"
import { readMp4Info } from "../../src/drawing/Mp4Info.js"
import { renderClip } from "../../src/drawing/Render.js"
import { DrawFailed, InvalidScene } from "../../src/drawing/RenderError.js"
import { cleanup, scene, tmp } from "./fixtures.js"

afterAll(cleanup)

describe("renderClip", () => {
  it("writes an H.264 yuv420p MP4 with the exact size, frame count and duration", async () => {
    const dir = tmp()
    const out = join(dir, "clip.mp4")
    const seen: Array<number> = []
    const result = await renderClip(scene(), { outputPath: out, onProgress: (p) => seen.push(p) })
    expect(result).toMatchObject({ width: 180, height: 320, frames: 30, fps: 30, durationMs: 1000 })
    const bytes = readFileSync(out)
    expect(result.byteSize).toBe(bytes.length)
    expect(result.sha256).toBe(createHash("sha256").update(bytes).digest("hex"))
    const info = await readMp4Info(out)
    expect(info.faststart).toBe(true)
    expect(info.durationMs).toBeCloseTo(1000, 0)
    expect(info.tracks).toHaveLength(1)
    expect(info.video).toMatchObject({ codec: "avc1", width: 180, height: 320, samples: 30, fps: 30 })
    expect(info.video?.avc?.profileName).toBe("High")
    expect(seen.at(-1)).toBe(1)
    expect(seen.every((p, i) => i === 0 || p >= seen[i - 1]!)).toBe(true)
    expect(readdirSync(dir)).toEqual(["clip.mp4"])
  })

  it("keeps a 10 s clip of the still tail small", async () => {
    const out = join(tmp(), "long.mp4")
    const result = await renderClip(scene({ frames: 300 }), { outputPath: out })
    const info = await readMp4Info(out)
    expect(info.video?.samples).toBe(300)
    expect(info.durationMs).toBeCloseTo(10_000, 0)
    expect(result.byteSize).toBeLessThan(200_000)
  })

  it("refuses an unsupported locale and an odd size before spawning anything", async () => {
    const out = join(tmp(), "x.mp4")
    await expect(renderClip(scene({ locale: "ar" }), { outputPath: out })).rejects.toBeInstanceOf(LocaleNotSupported)
    await expect(renderClip(scene({ width: 181 }), { outputPath: out })).rejects.toBeInstanceOf(InvalidScene)
    expect(existsSync(out)).toBe(false)
  })

  it("surfaces an encoder failure as a typed error with ffmpeg's stderr", async () => {
    const dir = tmp()
    const error = await renderClip(scene(), {
      outputPath: join(dir, "bad.mp4"),
      encoder: { codec: "no-such-encoder", preset: "veryfast", crf: 23 }
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DrawFailed)
    const failed = error as DrawFailed
    expect(failed.stage).toBe("encode")
    expect(failed.stderrTail.toLowerCase()).toContain("encoder")
    expect(readdirSync(dir)).toEqual([])
  })
})
