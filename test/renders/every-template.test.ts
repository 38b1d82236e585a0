import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { readMp4Info } from "../../src/drawing/Mp4Info.js"
import { renderClip } from "../../src/drawing/Render.js"
import { sceneFor } from "../../src/renders/Scenes.js"
import { buildExample } from "../../src/templates/Describe.js"
import type { Content } from "../../src/templates/format/Template.js"
import { listTemplates } from "../../src/templates/TemplateRegistry.js"

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-every-template-"))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

// Every shipped build × every ratio it offers, through the same scene mapping the service uses. Drawn at a quarter
// of the output size so the suite stays quick; the full-size frame sizes are checked by the export tests.
const cases = listTemplates().flatMap((template) =>
  template.variants.flatMap((variant) =>
    variant.builds.flatMap((build) => build.ratios.map((ratio) => ({ template, variant, build, ratio })))
  )
)

describe("every template build in every ratio it offers", () => {
  it.each(cases.map((c) => [`${c.template.name} ${c.variant.name} ${c.build.version} ${c.ratio}`, c] as const))(
    "%s yields a valid MP4 of the build's frame count",
    async (_label, { build, ratio, template }) => {
      const full = sceneFor(build, buildExample(template, build) as Content, ratio, "en")
      const scene = {
        ...full,
        width: Math.round(full.width / 8) * 2,
        height: Math.round(full.height / 8) * 2,
        safeArea: {
          top: Math.round(full.safeArea.top / 4),
          right: Math.round(full.safeArea.right / 4),
          bottom: Math.round(full.safeArea.bottom / 4),
          left: Math.round(full.safeArea.left / 4)
        }
      }
      const out = path.join(dir, `${template.id}-${build.version}-${ratio}-${Math.random().toString(36).slice(2)}.mp4`)
      const result = await renderClip(scene, { outputPath: out })
      const info = await readMp4Info(out)
      expect(info.video).toMatchObject({ width: scene.width, height: scene.height, samples: build.duration.frames })
      expect(info.durationMs).toBeCloseTo((build.duration.frames / build.fps) * 1000, -1)
      expect(result.byteSize).toBe(fs.statSync(out).size)
    },
    60_000
  )
})
