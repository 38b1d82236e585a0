import type { Block, BlockEnv } from "./Blocks.js"
import { luminance } from "./Color.js"
import { anim } from "./Motion.js"
import type { Element } from "./Plan.js"
import { fitText } from "./Text.js"

type Size = { readonly width: number; readonly height: number }

/** What the badge shows: text lines, or a picture of this size (an image, or a video's first frame). */
export type BadgeMark =
  | { readonly kind: "text"; readonly primaryLine: string; readonly secondaryLine?: string }
  | { readonly kind: "picture"; readonly size: Size }

/** The badge at the right end of the brand row; undefined when it has nothing to show. */
const badgeOf = (env: BlockEnv, badge: BadgeMark | undefined, right: number, y: number, h: number, maxW: number) => {
  if (badge === undefined) return undefined
  const a = anim(0.05, 0.4)
  if (badge.kind === "picture") {
    const { width, height } = badge.size
    if (width <= 0 || height <= 0) return undefined
    const bw = Math.min(maxW, (h * width) / height)
    const bh = (bw * height) / width
    const rect = { x: right - bw, y: y + (h - bh) / 2, w: bw, h: bh }
    const el: Element = { kind: "badge", rect, lines: [], ink: "", anim: a }
    return { width: bw, el }
  }
  const texts = [badge.primaryLine, badge.secondaryLine ?? ""].map((t) => t.trim()).filter((t) => t !== "")
  if (texts.length === 0) return undefined
  const padX = 22 * env.u
  const sizes = texts.length === 1 ? [26 * env.u] : [22 * env.u, 17 * env.u]
  const fitted = texts.map((text, i) =>
    fitText(env.ctx, text, {
      stack: i === 0 ? env.stacks.heading : env.stacks.body,
      weight: i === 0 ? 700 : 400,
      maxWidth: maxW - 2 * padX,
      maxHeight: h,
      maxLines: 1,
      size: sizes[i]!,
      minSize: sizes[i]! * 0.75,
      lineHeight: 1.15,
      locale: env.locale
    })
  )
  const bw = Math.min(maxW, Math.max(...fitted.map((f) => f.widest)) + 2 * padX)
  const textH = fitted.reduce((sum, f) => sum + f.size * 1.15, 0)
  let ty = y + (h - textH) / 2 - fitted[0]!.size * 0.05
  const lines = fitted.map((f) => {
    const line = { fitted: f, x: right - bw / 2, y: ty }
    ty += f.size * 1.15
    return line
  })
  const fill = env.colours.accent
  const ink = luminance(fill) > 0.45 ? "#000000" : "#ffffff"
  const el: Element = { kind: "badge", rect: { x: right - bw, y, w: bw, h }, lines, fill, ink, anim: a }
  return { width: bw, el }
}

/** Logo and brand name in one row at the top, the brand badge at its right end. */
export const brandRow = (
  env: BlockEnv,
  name: string | undefined,
  logo: Size | undefined,
  x: number,
  y: number,
  w: number,
  badge?: BadgeMark
): { readonly height: number; readonly elements: ReadonlyArray<Element> } | undefined => {
  const label = name?.trim() ?? ""
  const h = 60 * env.u
  const elements: Array<Element> = []
  const b = badgeOf(env, badge, x + w, y, h, w * 0.45)
  if (b !== undefined) elements.push(b.el)
  const room = w - (b === undefined ? 0 : b.width + 24 * env.u)
  let cursor = x
  if (logo !== undefined && logo.width > 0 && logo.height > 0) {
    const lw = Math.min(room * 0.5, (h * logo.width) / logo.height)
    const lh = (lw * logo.height) / logo.width
    elements.push({ kind: "logo", rect: { x, y: y + (h - lh) / 2, w: lw, h: lh }, anim: anim(0, 0.4) })
    cursor += lw + 20 * env.u
  }
  if (label !== "" && x + room - cursor > 40 * env.u) {
    const size = 34 * env.u * env.headingScale
    const fitted = fitText(env.ctx, label, {
      stack: env.stacks.heading,
      weight: 700,
      maxWidth: x + room - cursor,
      maxHeight: h,
      maxLines: 1,
      size,
      minSize: size * 0.7,
      lineHeight: 1.2,
      locale: env.locale
    })
    const ty = y + (h - fitted.size * 1.2) / 2
    elements.push({ kind: "text", fitted, x: cursor, y: ty, color: env.colours.text, anim: anim(0, 0.4), slide: 0 })
  }
  return elements.length === 0 ? undefined : { height: h, elements }
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
