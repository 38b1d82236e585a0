/** WCAG 2.x contrast on opaque sRGB hex colours (`#rrggbb`). */

export interface Rgb {
  readonly r: number
  readonly g: number
  readonly b: number
}

const HEX = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

export const isHexColor = (s: string): boolean => HEX.test(s.trim())

/** Channels in 0..255; accepts `#rgb` and `#rrggbb`, with or without the `#`. */
export const parseHex = (hex: string): Rgb => {
  const match = HEX.exec(hex.trim())
  if (match === null) throw new Error(`not a hex colour: ${hex}`)
  const h = match[1]!
  const full = h.length === 3 ? [...h].map((c) => c + c).join("") : h
  const n = (i: number) => parseInt(full.slice(i, i + 2), 16)
  return { r: n(0), g: n(2), b: n(4) }
}

const byte = (v: number) => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, "0")

export const toHex = (c: Rgb): string => `#${byte(c.r)}${byte(c.g)}${byte(c.b)}`

export const normalizeHex = (hex: string): string => toHex(parseHex(hex))

const linear = (channel: number) => {
  const s = channel / 255
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
}

/** WCAG 2.x relative luminance, 0 (black) to 1 (white). */
export const relativeLuminance = (hex: string): number => {
  const c = parseHex(hex)
  return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b)
}

/** (L1 + 0.05) / (L2 + 0.05) with L1 the lighter, unrounded: 1 to 21. */
export const contrastRatio = (a: string, b: string): number => {
  const la = relativeLuminance(a)
  const lb = relativeLuminance(b)
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
}

export const roundRatio = (ratio: number): number => Math.round(ratio * 100) / 100

export interface ContrastCheck {
  readonly label: string
  readonly ratio: number
  readonly target: number
  readonly ok: boolean
}

/** `ok` is decided on the exact ratio, as WCAG asks; `ratio` is shown to two decimals. */
export const check = (label: string, foreground: string, background: string, target: number): ContrastCheck => {
  const ratio = contrastRatio(foreground, background)
  return { label, ratio: roundRatio(ratio), target, ok: ratio >= target }
}
