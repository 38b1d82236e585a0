import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { readMp4Info } from "../../src/drawing/Mp4Info.js"
import { renderClip } from "../../src/drawing/Render.js"
import type { Layout } from "../../src/drawing/Scene.js"
import { cleanup, scene, smallSizes, tmp } from "./fixtures.js"

afterAll(cleanup)

const layouts: ReadonlyArray<Layout> = ["figures", "bullets", "comparison"]

describe("every layout in every ratio", () => {
  const dir = tmp()
  for (const [ratio, size] of Object.entries(smallSizes)) {
    it.concurrent(`${ratio}: figures, bullets and comparison yield valid MP4s`, async () => {
      for (const layout of layouts) {
        const out = join(dir, `${ratio}-${layout}.mp4`)
        const input = scene({ ...size, frames: 12, safeArea: { top: 8, right: 4, bottom: 12, left: 4 } }, layout)
        await renderClip(input, { outputPath: out })
        const info = await readMp4Info(out)
        expect(info.video).toMatchObject({ width: size.width, height: size.height, samples: 12, fps: 30 })
        expect(info.durationMs).toBeCloseTo(400, 0)
      }
    })
  }
})
