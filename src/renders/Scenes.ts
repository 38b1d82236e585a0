import type { SceneExtras } from "../brands/BrandLooks.js"
import { isRatio, ratioSizes } from "../drawing/Ratios.js"
import type { Insets, SceneInput } from "../drawing/Scene.js"
import type { Build, Content } from "../templates/format/Template.js"
import { localize } from "../templates/Localize.js"

/** Default safe areas per ratio, as fractions of the frame: platform chrome sits top and bottom in portrait. */
const safeFractions: Record<string, Insets> = {
  "9x16": { top: 0.08, right: 0.06, bottom: 0.14, left: 0.06 },
  "4x5": { top: 0.05, right: 0.05, bottom: 0.07, left: 0.05 },
  "1x1": { top: 0.05, right: 0.05, bottom: 0.05, left: 0.05 },
  "16x9": { top: 0.06, right: 0.05, bottom: 0.08, left: 0.05 },
  "2x3": { top: 0.06, right: 0.05, bottom: 0.1, left: 0.05 }
}

const withAlpha = (hex: string, alpha: number) =>
  hex.slice(0, 7) + Math.round(alpha * 255).toString(16).padStart(2, "0")

export const sizeOf = (ratio: string) => {
  if (!isRatio(ratio)) throw new Error(`No output size for ratio ${ratio}`)
  return ratioSizes[ratio]
}

/**
 * What one output of a render draws: the build's look, the content in the output's language, the ratio's frame, and
 * (from `extras`) the brand's marks and safe area and the pictures' library files. A picture no longer in the library
 * is drawn as an empty tile.
 */
export const sceneFor = (
  build: Build,
  content: Content,
  ratio: string,
  locale: string,
  extras?: SceneExtras
): SceneInput => {
  const { height, width } = sizeOf(ratio)
  const drawn = localize(content, locale).clipData
  const safe = safeFractions[ratio] ?? safeFractions["1x1"]!
  const images = (drawn.images ?? []).map((p) => ({ path: extras?.pictures.get(p.url) ?? "", alt: p.alt ?? "" }))
  return {
    width,
    height,
    fps: build.fps,
    frames: build.duration.frames,
    layout: build.look.layout,
    look: {
      background: build.look.background,
      accent: build.look.accent,
      positive: build.look.up,
      negative: build.look.down,
      text: build.look.foreground,
      mutedText: withAlpha(build.look.foreground, 0.72),
      radius: build.look.cornerRadius
    },
    content: {
      headline: drawn.headline,
      ...(drawn.subline === undefined ? {} : { subline: drawn.subline }),
      ...(drawn.figures === undefined ? {} : {
        figures: drawn.figures.map((f) => ({
          label: f.label,
          value: f.value,
          ...(f.unit === undefined ? {} : { unit: f.unit }),
          ...(f.direction === undefined ? {} : { direction: f.direction })
        }))
      }),
      ...(drawn.bullets === undefined ? {} : { bullets: drawn.bullets }),
      ...(images.length === 0 ? {} : { images }),
      ...(drawn.source === undefined ? {} : { source: drawn.source })
    },
    locale,
    safeArea: extras?.safeArea ?? {
      top: Math.round(safe.top * height),
      right: Math.round(safe.right * width),
      bottom: Math.round(safe.bottom * height),
      left: Math.round(safe.left * width)
    },
    ...(extras?.brand === undefined ? {} : { brand: extras.brand })
  }
}
