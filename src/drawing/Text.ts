import type { SKRSContext2D } from "@napi-rs/canvas"
import { font } from "./Fonts.js"

export interface TextBox {
  readonly stack: string
  readonly weight: number
  readonly maxWidth: number
  readonly maxHeight: number
  readonly maxLines: number
  /** Preferred size in px; shrunk step by step down to minSize before anything is cut. */
  readonly size: number
  readonly minSize: number
  readonly lineHeight: number
  readonly locale: string
}

export interface Fitted {
  readonly lines: ReadonlyArray<string>
  readonly size: number
  readonly font: string
  readonly lineStep: number
  readonly height: number
  readonly widest: number
}

const segmenters = new Map<string, { words: Intl.Segmenter; graphemes: Intl.Segmenter }>()

const segmenterFor = (locale: string) => {
  let s = segmenters.get(locale)
  if (s === undefined) {
    let tag = "en"
    try {
      tag = Intl.getCanonicalLocales(locale)[0] ?? "en"
    } catch {
      tag = "en"
    }
    s = {
      words: new Intl.Segmenter(tag, { granularity: "word" }),
      graphemes: new Intl.Segmenter(tag, { granularity: "grapheme" })
    }
    segmenters.set(locale, s)
  }
  return s
}

const punctuation = /^[\p{P}\p{Pe}\p{Pf}]+$/u

const wrapParagraph = (ctx: SKRSContext2D, text: string, maxWidth: number, locale: string): Array<string> => {
  const seg = segmenterFor(locale)
  const width = (s: string) => ctx.measureText(s).width
  const lines: Array<string> = []
  let line: Array<string> = []
  const flush = () => {
    const joined = line.join("").trim()
    if (joined.length > 0) lines.push(joined)
    line = []
  }
  for (const { segment } of seg.words.segment(text)) {
    if (width((line.join("") + segment).trimEnd()) <= maxWidth) {
      line.push(segment)
      continue
    }
    if (segment.trim() === "") {
      flush()
      continue
    }
    // Keep closing punctuation with the word before it rather than starting a line with it.
    const carried = punctuation.test(segment) && line.length > 1 ? [line.pop() ?? ""] : []
    flush()
    line = [...carried, segment]
    if (width(line.join("").trim()) <= maxWidth) continue
    // A single word wider than the box: break it between graphemes.
    let part = ""
    for (const { segment: g } of seg.graphemes.segment(line.join("").trim())) {
      if (part !== "" && width(part + g) > maxWidth) {
        lines.push(part)
        part = ""
      }
      part += g
    }
    line = [part]
  }
  flush()
  return lines
}

export const wrap = (ctx: SKRSContext2D, text: string, maxWidth: number, locale: string): Array<string> =>
  text.split(/\r?\n/).flatMap((p) => wrapParagraph(ctx, p, maxWidth, locale))

const ellipsize = (ctx: SKRSContext2D, text: string, maxWidth: number, locale: string): string => {
  if (ctx.measureText(text).width <= maxWidth) return text
  const graphemes = Array.from(segmenterFor(locale).graphemes.segment(text), (g) => g.segment)
  while (graphemes.length > 0 && ctx.measureText(graphemes.join("").trimEnd() + "…").width > maxWidth) graphemes.pop()
  return graphemes.join("").trimEnd() + "…"
}

const result = (ctx: SKRSContext2D, lines: ReadonlyArray<string>, size: number, f: string, box: TextBox): Fitted => ({
  lines,
  size,
  font: f,
  lineStep: size * box.lineHeight,
  height: lines.length === 0 ? 0 : (lines.length - 1) * size * box.lineHeight + size * 1.2,
  widest: lines.reduce((w, l) => Math.max(w, ctx.measureText(l).width), 0)
})

/** Wraps text into the box: shrinks the font until it fits, then cuts the last line with an ellipsis. */
export const fitText = (ctx: SKRSContext2D, text: string, box: TextBox): Fitted => {
  const fits = (n: number, size: number) =>
    n <= box.maxLines && (n - 1) * size * box.lineHeight + size * 1.2 <= box.maxHeight
  let size = box.size
  for (;;) {
    const f = font(box.weight, size, box.stack)
    ctx.font = f
    const lines = wrap(ctx, text, box.maxWidth, box.locale)
    if (fits(lines.length, size)) return result(ctx, lines, size, f, box)
    const next = size * 0.93
    if (next < box.minSize) {
      let keep = Math.max(1, box.maxLines)
      while (keep > 1 && !fits(keep, size)) keep--
      const kept = lines.slice(0, keep)
      const rest = lines.slice(keep - 1).join(" ")
      kept[keep - 1] = ellipsize(ctx, rest, box.maxWidth, box.locale)
      return result(ctx, kept, size, f, box)
    }
    size = next
  }
}

/** Draws fitted lines with their first baseline at y + size (top-aligned box). */
export const drawLines = (
  ctx: SKRSContext2D,
  fitted: Fitted,
  x: number,
  y: number,
  align: "left" | "center" = "left"
): void => {
  ctx.font = fitted.font
  ctx.textAlign = align
  ctx.textBaseline = "alphabetic"
  fitted.lines.forEach((line, i) => ctx.fillText(line, x, y + fitted.size * 0.98 + i * fitted.lineStep))
}
