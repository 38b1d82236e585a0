import type { BrandMarks, Insets, Look } from "../drawing/Scene.js"
import { baseLanguage } from "../templates/Locales.js"
import type { BrandStyle, SlotFile } from "./BrandStyle.js"

/** A slot file found in the media library: where ffmpeg and the drawer read it, and its hash (cache key). */
export interface LocalFile {
  readonly path: string
  readonly sha256: string
}

export type FileAt = (file: SlotFile | null | undefined) => LocalFile | undefined

/** The draft's text sizes (`src/brands/Draft.ts`) draw at the template's own sizes; other sizes scale from there. */
export const REFERENCE_SIZES = { primary: 64, secondary: 36 } as const

const fontSlots = ["primary", "secondary", "tertiary", "frame"] as const

/** The file of a per-language slot for a locale: its own, the bare language's, else the `default` one. */
export const localized = (files: Readonly<Record<string, SlotFile>> | null | undefined, locale: string) => {
  if (files === null || files === undefined) return null
  const base = baseLanguage(locale)
  const own = (key: string | undefined) => key !== undefined && Object.hasOwn(files, key) ? files[key] : undefined
  return own(locale) ?? own(base) ?? own("default") ?? null
}

const fontOf = (style: BrandStyle, slot: string): SlotFile | null =>
  (fontSlots as ReadonlyArray<string>).includes(slot) ? style.fonts[slot as (typeof fontSlots)[number]] : null

/** Every slot file one output (ratio × locale) may draw with; these are looked up in the media library. */
export const filesFor = (style: BrandStyle, ratio: string, locale: string): Array<SlotFile> =>
  [
    style.logo,
    fontOf(style, style.text.primary.font),
    fontOf(style, style.text.secondary.font),
    style.badge.enabled && style.badge.kind !== "text" ? localized(style.badge.asset, locale) : null,
    style.background.kind === "color" ? null : localized(style.background.asset, locale),
    style.intro.enabled ? localized(style.intro.clips[ratio], locale) : null,
    style.outro.enabled ? localized(style.outro.clips[ratio], locale) : null,
    style.sound.enabled ? style.sound.asset : null
  ].filter((f): f is SlotFile => f !== null)

/** The brand's colours laid over the template's look. */
export const lookOfStyle = (style: BrandStyle): Partial<Omit<Look, "radius">> => ({
  background: [style.design.first, style.design.second],
  accent: style.design.third,
  positive: style.accent.positive,
  negative: style.accent.negative,
  text: style.text.primary.color,
  mutedText: style.text.secondary.color
})

/** The brand's safe area for a ratio in output pixels, kept to at most half the frame on each axis. */
export const safeAreaOf = (style: BrandStyle, ratio: string, width: number, height: number): Insets | undefined => {
  const s = style.safeAreas[ratio]
  if (s === undefined) return undefined
  const fit = (a: number, b: number, room: number) => {
    const [x, y] = [Math.max(0, a), Math.max(0, b)]
    const k = x + y > room / 2 ? room / 2 / (x + y) : 1
    return [Math.floor(x * k), Math.floor(y * k)] as const
  }
  const [top, bottom] = fit(s.top, s.bottom, height)
  const [left, right] = fit(s.left, s.right, width)
  return { top, right, bottom, left }
}

type Defined<T> = { [K in keyof T]?: Exclude<T[K], undefined> }

/** The object without its undefined values (optional properties are absent, not undefined). */
const defined = <T extends object>(o: T): Defined<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Defined<T>

/**
 * What the renderer draws of a brand for one output: colours, fonts and their sizes, logo, badge, background, intro
 * and outro of the ratio, sound. A slot whose file is not in the media library (deleted since) is left out.
 */
export const marksFor = (
  brand: { readonly name: string; readonly style: BrandStyle },
  ratio: string,
  locale: string,
  fileAt: FileAt
): BrandMarks => {
  const { style } = brand
  const logo = fileAt(style.logo)
  const badge = style.badge
  const badgeFile = badge.enabled && badge.kind !== "text" ? fileAt(localized(badge.asset, locale)) : undefined
  const lines = { primaryLine: badge.primaryLine.trim(), secondaryLine: badge.secondaryLine.trim() }
  const bg = style.background
  const bgFile = bg.kind === "color" ? undefined : fileAt(localized(bg.asset, locale))
  const clip = (which: "intro" | "outro") => {
    const file = style[which].enabled ? fileAt(localized(style[which].clips[ratio], locale)) : undefined
    return file === undefined ? undefined : { path: file.path, sha256: file.sha256 }
  }
  const name = style.identity.name.trim() || brand.name
  return defined({
    // A logo usually carries the name; the name is written out only without one.
    name: logo === undefined ? name : undefined,
    logoPath: logo?.path,
    headingFontPath: fileAt(fontOf(style, style.text.primary.font))?.path,
    bodyFontPath: fileAt(fontOf(style, style.text.secondary.font))?.path,
    headingScale: style.text.primary.size / REFERENCE_SIZES.primary,
    bodyScale: style.text.secondary.size / REFERENCE_SIZES.secondary,
    look: lookOfStyle(style),
    badge: !badge.enabled
      ? undefined
      : badge.kind === "text"
      ? (lines.primaryLine === "" && lines.secondaryLine === "" ? undefined : { kind: "text" as const, ...lines })
      : badgeFile === undefined
      ? undefined
      : { kind: badge.kind, path: badgeFile.path },
    background: bg.kind === "color" || bgFile === undefined
      ? { kind: "color" as const }
      : { kind: bg.kind, path: bgFile.path },
    intro: clip("intro"),
    outro: clip("outro"),
    soundPath: style.sound.enabled ? fileAt(style.sound.asset)?.path : undefined
  })
}
