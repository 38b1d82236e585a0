export interface Rgba {
  readonly r: number
  readonly g: number
  readonly b: number
  readonly a: number
}

export const parseHex = (hex: string): Rgba => {
  const h = hex.trim().replace(/^#/, "")
  const full = h.length === 3 || h.length === 4 ? [...h].map((c) => c + c).join("") : h
  if (!/^[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/.test(full)) throw new Error(`not a hex colour: ${hex}`)
  const n = (i: number) => parseInt(full.slice(i, i + 2), 16)
  return { r: n(0), g: n(2), b: n(4), a: full.length === 8 ? n(6) / 255 : 1 }
}

export const isHex = (hex: string): boolean => {
  try {
    parseHex(hex)
    return true
  } catch {
    return false
  }
}

export const rgba = (hex: string, alpha = 1): string => {
  const c = parseHex(hex)
  return `rgba(${c.r}, ${c.g}, ${c.b}, ${Math.round(c.a * alpha * 1000) / 1000})`
}

/** Relative luminance (sRGB), to pick panel tints that read on light and dark backgrounds alike. */
export const luminance = (hex: string): number => {
  const c = parseHex(hex)
  const lin = (v: number) => {
    const s = v / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)
}

/** Blends an opaque colour over another, for colours that must be known exactly (the progress bar in YUV). */
export const over = (top: string, alpha: number, bottom: string): Rgba => {
  const t = parseHex(top)
  const b = parseHex(bottom)
  const mix = (x: number, y: number) => Math.round(x * alpha + y * (1 - alpha))
  return { r: mix(t.r, b.r), g: mix(t.g, b.g), b: mix(t.b, b.b), a: 1 }
}
