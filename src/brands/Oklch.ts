import { parseHex, toHex } from "./Contrast.js"

/** OKLCH: perceptual lightness 0..1, chroma 0..~0.37, hue in degrees. */
export interface Oklch {
  readonly l: number
  readonly c: number
  readonly h: number
}

type Vec = readonly [number, number, number]

const toLinear = (v: number) => {
  const s = v / 255
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
}
const fromLinear = (v: number) => 255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055)

const linearToOklab = ([r, g, b]: Vec): Vec => {
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s
  ]
}

const oklabToLinear = ([L, a, b]: Vec): Vec => {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s
  ]
}

export const hexToOklch = (hex: string): Oklch => {
  const { b, g, r } = parseHex(hex)
  const [L, A, B] = linearToOklab([toLinear(r), toLinear(g), toLinear(b)])
  const c = Math.hypot(A, B)
  const h = c < 1e-4 ? 0 : (Math.atan2(B, A) * 180 / Math.PI + 360) % 360
  return { l: L, c, h }
}

const linearOf = ({ c, h, l }: Oklch): Vec => {
  const rad = h * Math.PI / 180
  return oklabToLinear([l, c * Math.cos(rad), c * Math.sin(rad)])
}

const EPS = 1e-6
const inGamut = (v: Vec) => v.every((x) => x >= -EPS && x <= 1 + EPS)

/** Out-of-gamut colours keep lightness and hue and lose chroma until sRGB can show them. */
export const oklchToHex = (color: Oklch): string => {
  const l = Math.max(0, Math.min(1, color.l))
  let v = linearOf({ ...color, l })
  if (!inGamut(v)) {
    let lo = 0
    let hi = color.c
    for (let i = 0; i < 24; i++) {
      const mid = (lo + hi) / 2
      if (inGamut(linearOf({ l, c: mid, h: color.h }))) lo = mid
      else hi = mid
    }
    v = linearOf({ l, c: lo, h: color.h })
  }
  const clamp = (x: number) => Math.max(0, Math.min(1, x))
  return toHex({ r: fromLinear(clamp(v[0])), g: fromLinear(clamp(v[1])), b: fromLinear(clamp(v[2])) })
}

export const oklch = (l: number, c: number, h: number): Oklch => ({ l, c, h: ((h % 360) + 360) % 360 })
