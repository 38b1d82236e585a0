import type { ContentLimits } from "./Fields.js"

export type Ratio = "9x16" | "4x5" | "1x1" | "16x9" | "2x3"

export const allRatios: ReadonlyArray<Ratio> = ["9x16", "4x5", "1x1", "16x9", "2x3"]

export type LayoutKind = "figures" | "bullets" | "comparison"

/** Drawing parameters the renderer reads; timings are in frames at the build's fps. */
export interface Look {
  readonly layout: LayoutKind
  readonly background: readonly [string, string]
  readonly foreground: string
  readonly accent: string
  readonly up: string
  readonly down: string
  readonly cornerRadius: number
  readonly timing: {
    readonly enter: number
    readonly stagger: number
    readonly outro: number
  }
}

/** An immutable build: once shipped, a version's data never changes (a change is a new version). */
export interface Build {
  readonly version: string
  readonly ratios: ReadonlyArray<Ratio>
  readonly fps: number
  readonly duration: { readonly mode: "fixed"; readonly frames: number }
  readonly limits: ContentLimits
  readonly look: Look
}

export interface Variant {
  readonly name: string
  /** Oldest first, newest last. */
  readonly builds: ReadonlyArray<Build>
}

export interface Figure {
  readonly label: string
  readonly value: number
  readonly unit?: string
  readonly direction?: "up" | "down" | "flat"
}

export interface Picture {
  readonly url: string
  readonly alt?: string
}

export interface ClipData {
  readonly headline: string
  readonly subline?: string
  readonly figures?: ReadonlyArray<Figure>
  readonly bullets?: ReadonlyArray<string>
  readonly images?: ReadonlyArray<Picture>
  readonly source?: string
}

export interface MetaData {
  readonly title?: string
  readonly captionShort?: string
  readonly captionMedium?: string
  readonly captionLong?: string
  readonly hashtags?: ReadonlyArray<string>
}

export interface LocaleCopy {
  readonly clipData?: Partial<ClipData>
  readonly metaData?: MetaData
}

/** A content document as accepted by every reference build (after validation). */
export interface Content {
  readonly clipData: ClipData
  readonly metaData?: MetaData
  readonly locales?: { readonly [locale: string]: LocaleCopy }
}

export interface Template {
  readonly id: string
  readonly name: string
  readonly family: string
  readonly description: string
  readonly contentStyle: string
  readonly milestone: number
  readonly offered: boolean
  readonly subvariants: ReadonlyArray<string>
  readonly overridableStyle: ReadonlyArray<string>
  /** The first variant is the default one. */
  readonly variants: ReadonlyArray<Variant>
  /** Full sample content; each build's worked example is this sample fitted to the build. */
  readonly sample: Content
}

/** A build together with the template and variant it belongs to. */
export interface ResolvedBuild {
  readonly template: Template
  readonly variant: Variant
  readonly build: Build
}
