/** Plain, JSON-serialisable description of one clip: it crosses the process boundary to the drawer. */

export type Hex = string

/** How a clip arranges its content; templates pick one per build. */
export type Layout = "figures" | "bullets" | "comparison"

export const layouts: ReadonlyArray<Layout> = ["figures", "bullets", "comparison"]

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

/** What one clip says and shows; pictures are local files, resolved before the scene is made. */
export interface SceneContent {
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

/**
 * A brand badge: a pill with one or two lines of text, or a picture. An MP4 badge plays (looped) in a clip and shows
 * its first frame in a keyframe; `still` is that frame, filled in by the renderer (the layout takes its size).
 */
export type BrandBadge =
  | { readonly kind: "text"; readonly primaryLine: string; readonly secondaryLine?: string }
  | { readonly kind: "image"; readonly path: string }
  | { readonly kind: "video"; readonly path: string; readonly still?: string }

/**
 * What lies under the content: the look's gradient (`color`), a picture cover-fitted to the frame, or a video,
 * cover-fitted and looped under a clip (a keyframe shows its first frame).
 */
export type BrandBackground =
  | { readonly kind: "color" }
  | { readonly kind: "image"; readonly path: string }
  | { readonly kind: "video"; readonly path: string }

/** An intro or outro clip (MP4). `sha256` of the file, when known, saves hashing it for the cache key. */
export interface BrandClip {
  readonly path: string
  readonly sha256?: string
}

/** Optional brand additions; every path is a local file. */
export interface BrandMarks {
  readonly name?: string
  readonly logoPath?: string
  /** Brand fonts (ttf, otf, woff, woff2); script fallbacks still come from the shipped Noto fonts. */
  readonly headingFontPath?: string
  readonly bodyFontPath?: string
  /** Multiplies the template's heading (headline, brand name) and body (subline, bullets, source) sizes; 1 = as is. */
  readonly headingScale?: number
  readonly bodyScale?: number
  /** Colours laid over the template's look. */
  readonly look?: Partial<Omit<Look, "radius">>
  readonly badge?: BrandBadge
  readonly background?: BrandBackground
  /** Prepended and appended to the drawn clip after encoding (normalised to its encoder settings, cached). */
  readonly intro?: BrandClip
  readonly outro?: BrandClip
  /** MP3 or WAV mixed in as AAC under the drawn clip, looped or cut to its length, faded out at the end. */
  readonly soundPath?: string
}

export interface SceneInput {
  readonly width: number
  readonly height: number
  readonly fps: number
  readonly frames: number
  readonly layout: Layout
  readonly look: Look
  readonly content: SceneContent
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

export const durationMsOf = (scene: Pick<SceneInput, "frames" | "fps">): number =>
  Math.round((scene.frames * 1000) / scene.fps)

/** The look a scene is drawn with: the template's, with the brand's colours laid over it. */
export const lookOf = (scene: Pick<SceneInput, "look" | "brand">): Look => {
  const over = scene.brand?.look
  if (over === undefined) return scene.look
  const defined = Object.fromEntries(Object.entries(over).filter(([, v]) => v !== undefined)) as Partial<Look>
  return { ...scene.look, ...defined }
}

/** A brand text scale, kept within what the layout can absorb. */
export const scaleOf = (v: number | undefined): number =>
  v === undefined || !Number.isFinite(v) || v <= 0 ? 1 : Math.min(1.6, Math.max(0.6, v))
