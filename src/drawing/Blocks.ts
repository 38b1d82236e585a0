import type { SKRSContext2D } from "@napi-rs/canvas"
import { font } from "./Fonts.js"
import type { FontStacks } from "./Fonts.js"
import { anim, decimalsOf, formatNumber } from "./Motion.js"
import type { Anim } from "./Motion.js"
import type { Colours, Counter, Element } from "./Plan.js"
import type { Figure } from "./Scene.js"
import { fitText } from "./Text.js"

export interface Block {
  readonly height: number
  /** False when even the smallest readable sizes overflow the room given. */
  readonly fits: boolean
  /** Natural time (s) at which this block's last animation ends. */
  readonly end: number
  readonly place: (x: number, y: number) => ReadonlyArray<Element>
}

export interface BlockEnv {
  readonly ctx: SKRSContext2D
  readonly stacks: FontStacks
  readonly locale: string
  readonly u: number
  readonly colours: Colours
  readonly radius: number
  /** Natural time (s) the block's first entrance starts. */
  readonly startAt: number
  /** Brand text scales (1 = the template's sizes). */
  readonly headingScale: number
  readonly bodyScale: number
}

export const stagger = 0.08
export const entrance = 0.5
export const counting = 0.8

const itemAnim = (env: BlockEnv, i: number): Anim => anim(env.startAt + i * stagger, entrance)
const countAnim = (env: BlockEnv, i: number): Anim => anim(env.startAt + i * stagger + 0.05, counting)
const lastEnd = (env: BlockEnv, n: number) => env.startAt + Math.max(0, n - 1) * stagger + 0.05 + counting

/** A counter sized so that its final text (value and unit) fits maxWidth. */
export const counterFor = (env: BlockEnv, f: Figure, size: number, maxWidth: number, a: Anim) => {
  const decimals = decimalsOf(f.value, f.decimals)
  const shown = formatNumber(f.value, decimals, env.locale)
  const unit = f.unit?.trim() ?? ""
  let s = size
  for (;;) {
    const valueFont = font(700, s, env.stacks.heading)
    const unitFont = font(700, s * 0.55, env.stacks.heading)
    env.ctx.font = valueFont
    const w = env.ctx.measureText(shown).width
    env.ctx.font = unitFont
    const uw = unit === "" ? 0 : env.ctx.measureText(unit).width + s * 0.12
    if (w + uw <= maxWidth || s < 8) {
      const counter: Counter = {
        value: f.value,
        decimals,
        font: valueFont,
        size: s,
        anim: a,
        ...(unit === "" ? {} : { unit: { text: unit, font: unitFont, gap: s * 0.12 } })
      }
      return { counter, size: s }
    }
    s *= 0.92
  }
}

export const figuresBlock = (env: BlockEnv, figures: ReadonlyArray<Figure>, w: number, maxH: number): Block => {
  const { u } = env
  const n = figures.length
  const gap = 28 * u
  let best = { cols: 1, rows: n, v: 0 }
  for (let cols = 1; cols <= Math.min(3, n); cols++) {
    const rows = Math.ceil(n / cols)
    const cellW = (w - (cols - 1) * gap) / cols
    const cellH = (maxH - (rows - 1) * gap) / rows
    const v = Math.min(128 * u, cellW * 0.2, cellH * 0.4)
    if (v > best.v * 1.08) best = { cols, rows, v }
  }
  const { cols, rows } = best
  const cellW = (w - (cols - 1) * gap) / cols
  const v = best.v
  const pad = Math.max(12 * u, v * 0.34)
  const arrowSize = v * 0.62
  const labelSize = Math.max(20 * u, v * 0.36)
  const labels = figures.map((f) =>
    fitText(env.ctx, f.label, {
      stack: env.stacks.body,
      weight: 400,
      maxWidth: cellW - 2 * pad,
      maxHeight: labelSize * 2.6,
      maxLines: 2,
      size: labelSize,
      minSize: labelSize * 0.8,
      lineHeight: 1.2,
      locale: env.locale
    })
  )
  const labelH = Math.max(...labels.map((l) => l.height))
  const cellMax = (maxH - (rows - 1) * gap) / rows
  const cardH = Math.min(cellMax, pad * 2 + labelH + v * 0.25 + v * 1.05)
  const height = rows * cardH + (rows - 1) * gap
  return {
    height,
    fits: v >= 40 * u,
    end: lastEnd(env, n),
    place: (x, y) =>
      figures.map((f, i): Element => {
        const col = i % cols
        const row = Math.floor(i / cols)
        const inRow = Math.min(cols, n - row * cols)
        // Centre an incomplete last row.
        const rowX = x + ((cols - inRow) * (cellW + gap)) / 2
        const rect = { x: rowX + col * (cellW + gap), y: y + row * (cardH + gap), w: cellW, h: cardH }
        const hasArrow = f.direction !== undefined
        const valueMax = rect.w - 2 * pad - (hasArrow ? arrowSize + pad * 0.6 : 0)
        const { counter, size } = counterFor(env, f, v, valueMax, countAnim(env, i))
        const baseline = rect.y + rect.h - pad - size * 0.12
        return {
          kind: "card",
          rect,
          radius: env.radius,
          label: labels[i]!,
          labelAt: { x: rect.x + pad, y: rect.y + pad * 0.85 },
          counter,
          valueAt: { x: rect.x + pad, y: baseline },
          ...(f.direction === undefined
            ? {}
            : {
              arrow: {
                direction: f.direction,
                cx: rect.x + rect.w - pad - arrowSize / 2,
                cy: baseline - size * 0.36,
                size: arrowSize
              }
            }),
          anim: itemAnim(env, i),
          slide: 48 * u
        }
      })
  }
}

export const bulletsBlock = (env: BlockEnv, bullets: ReadonlyArray<string>, w: number, maxH: number): Block => {
  const { u } = env
  let size = 56 * u * env.bodyScale
  const minSize = 26 * u * Math.min(1, env.bodyScale)
  for (;;) {
    const indent = size * 1.25
    const fitted = bullets.map((b) =>
      fitText(env.ctx, b, {
        stack: env.stacks.body,
        weight: 400,
        maxWidth: w - indent,
        maxHeight: size * 4,
        maxLines: 3,
        size,
        minSize: size,
        lineHeight: 1.28,
        locale: env.locale
      })
    )
    const gap = size * 0.7
    const height = fitted.reduce((h, f) => h + f.height, 0) + gap * (bullets.length - 1)
    if (height <= maxH || size * 0.92 < minSize) {
      // Rather drop the last points than overflow into the source line.
      if (height > maxH && bullets.length > 1) return bulletsBlock(env, bullets.slice(0, -1), w, maxH)
      return {
        height,
        fits: height <= maxH,
        end: env.startAt + (bullets.length - 1) * stagger + entrance,
        place: (x, y) => {
          let top = y
          return fitted.map((text, i): Element => {
            const el: Element = {
              kind: "bullet",
              marker: { cx: x + size * 0.32, cy: top + size * 0.62, r: size * 0.2 },
              text,
              at: { x: x + indent, y: top },
              anim: itemAnim(env, i),
              slide: 40 * u
            }
            top += text.height + gap
            return el
          })
        }
      }
    }
    size *= 0.92
  }
}
