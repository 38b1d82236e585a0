/** Plain, JSON-serialisable description of one clip: it crosses the process boundary to the drawer. */

export type Hex = string

export type Layout = "figures" | "bullets" | "comparison"

export type Direction = "up" | "down" | "flat"

export interface Look {
  readonly background: readonly [Hex, Hex]
  readonly accent: Hex
  readonly positive: Hex
  readonly negative: Hex
  readonly text: Hex
  readonly mutedText: Hex
  /** Corner radius of panels and pictures, in pixels of a 1080-wide canvas (scaled with the clip). */
  readonly radius: number
}

export interface Figure {
  readonly label: string
  readonly value: number
  readonly unit?: string
  readonly direction?: Direction
  /** Fraction digits shown while counting; defaults to the digits the value carries (at most 4). */
  readonly decimals?: number
}

export interface Picture {
  /** Local file, already resolved by the caller (PNG, JPEG, WebP, GIF). */
  readonly path: string
  readonly alt: string
}

export interface Content {
  readonly headline: string
  readonly subline?: string
  readonly figures?: ReadonlyArray<Figure>
  readonly bullets?: ReadonlyArray<string>
  readonly images?: ReadonlyArray<Picture>
  readonly source?: string
}

export interface Insets {
  readonly top: number
  readonly right: number
  readonly bottom: number
  readonly left: number
}

/** Optional brand additions; every path is a local file. */
export interface BrandMarks {
  readonly name?: string
  readonly logoPath?: string
  /** Brand fonts (ttf, otf, woff, woff2); script fallbacks still come from the shipped Noto fonts. */
  readonly headingFontPath?: string
  readonly bodyFontPath?: string
}

export interface SceneInput {
  readonly width: number
  readonly height: number
  readonly fps: number
  readonly frames: number
  readonly layout: Layout
  readonly look: Look
  readonly content: Content
  readonly locale: string
  /** Pixels of the output frame that text and panels keep clear of. */
  readonly safeArea: Insets
  readonly brand?: BrandMarks
}

export type Orientation = "portrait" | "square" | "landscape"

export const orientationOf = (width: number, height: number): Orientation => {
  const r = height / width
  return r >= 1.2 ? "portrait" : r <= 1 / 1.2 ? "landscape" : "square"
}

/** Output sizes of the ratios the service knows, long side 1920 (16x9, 9x16) or 1080 wide. */
export const ratioSizes: Readonly<Record<string, { readonly width: number; readonly height: number }>> = {
  "9x16": { width: 1080, height: 1920 },
  "4x5": { width: 1080, height: 1350 },
  "1x1": { width: 1080, height: 1080 },
  "16x9": { width: 1920, height: 1080 },
  "2x3": { width: 1080, height: 1620 }
}

export const durationMsOf = (scene: Pick<SceneInput, "frames" | "fps">): number =>
  Math.round((scene.frames * 1000) / scene.fps)
