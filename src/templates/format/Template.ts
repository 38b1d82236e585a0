import type { Ratio } from "../../drawing/Ratios.js"
import type { Figure, Hex, Layout, SceneContent } from "../../drawing/Scene.js"
import type { ContentLimits } from "./Fields.js"

/**
 * A build's look as shipped (part of the build's data, so of its sha); `sceneFor` turns it into the renderer's
 * `Look`. Timings are in frames at the build's fps.
 */
export interface BuildLook {
  readonly layout: Layout
  readonly background: readonly [Hex, Hex]
  readonly foreground: Hex
  readonly accent: Hex
  readonly up: Hex
  readonly down: Hex
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
  readonly look: BuildLook
}

export interface Variant {
  readonly name: string
  /** Oldest first, newest last. */
  readonly builds: ReadonlyArray<Build>
}

/** A picture as content names it: a media URL, resolved to a library file when the scene is made. */
export interface PictureLink {
  readonly url: string
  readonly alt?: string
}

/** A clip's copy as content carries it: what a scene shows, with pictures as links and figures' decimals left out. */
export interface ClipData extends Omit<SceneContent, "figures" | "images"> {
  readonly figures?: ReadonlyArray<Omit<Figure, "decimals">>
  readonly images?: ReadonlyArray<PictureLink>
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
