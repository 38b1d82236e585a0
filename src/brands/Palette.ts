import { check, type ContrastCheck, contrastRatio, normalizeHex, relativeLuminance } from "./Contrast.js"
import { hexToOklch, type Oklch, oklch, oklchToHex } from "./Oklch.js"

export type Stage = "dark" | "light"
export type Direction = "green-up" | "red-up" | "custom"

/** Every single-colour key of a palette, in answer order; `series` follows them. */
export const PALETTE_COLOR_KEYS = [
  "stage",
  "surface",
  "surfaceRaised",
  "line",
  "lineStrong",
  "textStrong",
  "textBody",
  "textMuted",
  "onBrand",
  "brand",
  "brandMuted",
  "brandSecond",
  "positive",
  "negative",
  "neutral"
] as const
export type PaletteColorKey = typeof PALETTE_COLOR_KEYS[number]

export type Palette = { readonly [K in PaletteColorKey]: string } & { readonly series: ReadonlyArray<string> }

export interface PaletteInput {
  readonly brand: string
  readonly stage: Stage
  readonly direction: Direction
  readonly background?: string | undefined
  readonly positive?: string | undefined
  readonly negative?: string | undefined
  readonly second?: string | undefined
  readonly overrides?: Partial<Record<PaletteColorKey, string>> | undefined
}

export interface PaletteAnswer {
  readonly palette: Palette
  readonly checks: ReadonlyArray<ContrastCheck>
}

/** A hair above the target, so a ratio shown to two decimals never reads below it. */
const MARGIN = 0.01
const GREEN_HUE = 145
const RED_HUE = 27
const SERIES_SIZE = 8

const meets = (hex: string, against: string, target: number) => contrastRatio(hex, against) >= target + MARGIN

/** The lightness nearest the colour's own (towards `up` or away) that meets the target, if any does. */
const searchLightness = (color: Oklch, against: string, target: number, up: boolean): string | undefined => {
  const end = up ? 1 : 0
  if (!meets(oklchToHex({ ...color, l: end }), against, target)) return undefined
  let failing = color.l
  let passing = end
  for (let i = 0; i < 32; i++) {
    const mid = (failing + passing) / 2
    if (meets(oklchToHex({ ...color, l: mid }), against, target)) passing = mid
    else failing = mid
  }
  return oklchToHex({ ...color, l: passing })
}

/**
 * Moves only the lightness (hue and chroma stay, as far as sRGB allows) until the colour reads on `against`:
 * first away from the background, then towards it; when neither reaches, black or white, whichever reads better.
 */
export const ensureContrast = (color: Oklch, against: string, target: number): string => {
  const start = oklchToHex(color)
  if (meets(start, against, target)) return start
  const up = relativeLuminance(start) >= relativeLuminance(against)
  return searchLightness(color, against, target, up) ??
    searchLightness(color, against, target, !up) ??
    (contrastRatio("#ffffff", against) >= contrastRatio("#000000", against) ? "#ffffff" : "#000000")
}

const clamp = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, x))

/** Hues spread around the brand's, alternating two lightnesses, each readable (3:1) on the surface. */
const seriesOf = (hue: number, chroma: number, stage: Stage, surface: string): Array<string> => {
  const c = clamp(chroma, 0.11, 0.17)
  const [la, lb] = stage === "dark" ? [0.76, 0.66] : [0.56, 0.46]
  const seen = new Set<string>()
  for (const offset of [0, 22.5]) {
    for (let k = 0; k < SERIES_SIZE && seen.size < SERIES_SIZE; k++) {
      const hex = ensureContrast(oklch(k % 2 === 0 ? la : lb, c, hue + offset + k * 45), surface, 3)
      seen.add(hex)
    }
  }
  return [...seen]
}

/** Derives a whole palette from one brand colour; every derived text colour meets its WCAG target on the surface. */
export const derivePalette = (input: PaletteInput): PaletteAnswer => {
  const dark = input.stage === "dark"
  const overrides = input.overrides ?? {}
  const pick = (key: PaletteColorKey, derive: () => string) => {
    const given = overrides[key]
    return given === undefined ? derive() : normalizeHex(given)
  }
  const brand = pick("brand", () => normalizeHex(input.brand))
  const b = hexToOklch(brand)
  const tint = Math.min(b.c, 0.1) * 0.25

  const stage = pick(
    "stage",
    () =>
      input.background === undefined
        ? oklchToHex(oklch(dark ? 0.16 : 0.955, tint, b.h))
        : normalizeHex(input.background)
  )
  const s = hexToOklch(stage)
  const layer = (step: number) => oklch(dark ? s.l + 0.05 * step : s.l + (1 - s.l) * 0.6 * step, s.c, s.h)
  const surface = pick("surface", () => oklchToHex(layer(1)))
  const surfaceRaised = pick("surfaceRaised", () => oklchToHex(layer(dark ? 2 : 1.6)))
  const sl = hexToOklch(surface).l
  const line = pick("line", () => oklchToHex(oklch(dark ? sl + 0.12 : sl - 0.1, tint, b.h)))
  const lineStrong = pick("lineStrong", () => oklchToHex(oklch(dark ? sl + 0.22 : sl - 0.2, tint, b.h)))

  const text = (l: number, c: number, target: number) => ensureContrast(oklch(l, c, b.h), surface, target)
  const textStrong = pick("textStrong", () => text(dark ? 0.97 : 0.18, Math.min(tint, 0.01), 7))
  const textBody = pick("textBody", () => text(dark ? 0.9 : 0.28, Math.min(tint, 0.015), 4.5))
  const textMuted = pick("textMuted", () => text(dark ? 0.72 : 0.5, Math.min(tint * 1.5, 0.03), 4.5))

  const lightOnBrand = contrastRatio("#ffffff", brand) >= contrastRatio("#000000", brand)
  const onBrand = pick("onBrand", () => ensureContrast(oklch(lightOnBrand ? 0.99 : 0.16, 0.01, b.h), brand, 4.5))
  const brandMuted = pick(
    "brandMuted",
    () => oklchToHex(oklch(dark ? sl + 0.12 : sl - 0.08, Math.min(b.c, 0.12) * 0.6, b.h))
  )
  const brandSecond = pick(
    "brandSecond",
    () => input.second === undefined ? oklchToHex(oklch(b.l, b.c, b.h + 40)) : normalizeHex(input.second)
  )

  const signal = (hue: number) => ensureContrast(oklch(dark ? 0.75 : 0.52, 0.16, hue), surface, 3)
  const [upHue, downHue] = input.direction === "red-up" ? [RED_HUE, GREEN_HUE] : [GREEN_HUE, RED_HUE]
  const custom = input.direction === "custom"
  const positive = pick(
    "positive",
    () => custom && input.positive !== undefined ? normalizeHex(input.positive) : signal(upHue)
  )
  const negative = pick(
    "negative",
    () => custom && input.negative !== undefined ? normalizeHex(input.negative) : signal(downHue)
  )
  const neutral = pick("neutral", () => ensureContrast(oklch(dark ? 0.7 : 0.55, 0.01, b.h), surface, 3))

  const palette: Palette = {
    stage,
    surface,
    surfaceRaised,
    line,
    lineStrong,
    textStrong,
    textBody,
    textMuted,
    onBrand,
    brand,
    brandMuted,
    brandSecond,
    positive,
    negative,
    neutral,
    series: seriesOf(b.h, b.c, input.stage, surface)
  }
  return {
    palette,
    checks: [
      check("text on surface", textBody, surface, 4.5),
      check("muted text on surface", textMuted, surface, 4.5),
      check("text on brand", onBrand, brand, 4.5),
      check("positive on surface", positive, surface, 3),
      check("negative on surface", negative, surface, 3)
    ]
  }
}
