import type { Block, BlockEnv } from "./Blocks.js"
import { anim } from "./Motion.js"
import type { Element } from "./Plan.js"
import { fitText } from "./Text.js"

/** Logo and brand name in one row at the top. */
export const brandRow = (
  env: BlockEnv,
  name: string | undefined,
  logo: { readonly width: number; readonly height: number } | undefined,
  x: number,
  y: number,
  w: number
): { readonly height: number; readonly elements: ReadonlyArray<Element> } | undefined => {
  const label = name?.trim() ?? ""
  if (logo === undefined && label === "") return undefined
  const h = 60 * env.u
  const elements: Array<Element> = []
  let cursor = x
  if (logo !== undefined && logo.width > 0 && logo.height > 0) {
    const lw = Math.min(w * 0.5, (h * logo.width) / logo.height)
    const lh = (lw * logo.height) / logo.width
    elements.push({ kind: "logo", rect: { x, y: y + (h - lh) / 2, w: lw, h: lh }, anim: anim(0, 0.4) })
    cursor += lw + 20 * env.u
  }
  if (label !== "") {
    const size = 34 * env.u
    const fitted = fitText(env.ctx, label, {
      stack: env.stacks.heading, weight: 700, maxWidth: x + w - cursor, maxHeight: h, maxLines: 1, size,
      minSize: size * 0.7, lineHeight: 1.2, locale: env.locale
    })
    const ty = y + (h - fitted.size * 1.2) / 2
    elements.push({ kind: "text", fitted, x: cursor, y: ty, color: env.colours.text, anim: anim(0, 0.4), slide: 0 })
  }
  return { height: h, elements }
}

/** Up to three pictures side by side, cover-fitted into rounded tiles. */
export const picturesBlock = (env: BlockEnv, count: number, w: number, maxH: number, vertical = false): Block => {
  const gap = 20 * env.u
  const tileW = vertical ? w : (w - (count - 1) * gap) / count
  const tileH = vertical
    ? Math.max(0, Math.min(w * 0.8, (maxH - (count - 1) * gap) / count))
    : Math.max(0, Math.min(maxH, tileW * (count === 1 ? 0.45 : count === 2 ? 0.62 : 0.8)))
  const step = { x: vertical ? 0 : tileW + gap, y: vertical ? tileH + gap : 0 }
  return {
    height: vertical ? count * tileH + (count - 1) * gap : tileH,
    fits: tileH >= 80 * env.u,
    end: 0.2 + (count - 1) * 0.08 + 0.5,
    place: (x, y) =>
      Array.from({ length: count }, (_, i): Element => ({
        kind: "picture",
        rect: { x: x + i * step.x, y: y + i * step.y, w: tileW, h: tileH },
        index: i,
        radius: env.radius,
        anim: anim(env.startAt + i * 0.08, 0.5)
      }))
  }
}

