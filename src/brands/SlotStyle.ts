import { type SlotEdit, type SlotPlace, slotPlace } from "../media/MediaFile.js"
import type { BrandStyle, SlotFile } from "./BrandStyle.js"

/** The key of a per-language slot's file used for every locale without its own. */
export const DEFAULT_LOCALE = "default"

/** One file held by a brand style: the slot's route name, and the locale for per-language slots. */
export interface HeldFile {
  readonly slot: string
  readonly locale?: string
  readonly file: SlotFile
}

type Localized = Readonly<Record<string, SlotFile>>

const localizedEntries = (slot: string, files: Localized | null): Array<HeldFile> =>
  Object.entries(files ?? {}).map(([locale, file]) => ({ slot, locale, file }))

/** Every file the style holds, in a stable order. */
export const heldFiles = (style: BrandStyle): Array<HeldFile> => [
  ...(style.logo === null ? [] : [{ slot: "logo", file: style.logo }]),
  ...localizedEntries("badge", style.badge.asset),
  ...localizedEntries("background", style.background.asset),
  ...Object.entries(style.intro.clips).flatMap(([ratio, files]) => localizedEntries(`intro-${ratio}`, files)),
  ...Object.entries(style.outro.clips).flatMap(([ratio, files]) => localizedEntries(`outro-${ratio}`, files)),
  ...(style.sound.asset === null ? [] : [{ slot: "sound", file: style.sound.asset }]),
  ...(["primary", "secondary", "tertiary", "frame"] as const).flatMap((which) => {
    const file = style.fonts[which]
    return file === null ? [] : [{ slot: `font-${which}`, file }]
  })
]

/** The file in one slot (and locale), if any. */
export const fileIn = (style: BrandStyle, place: SlotPlace, locale: string): SlotFile | null => {
  switch (place._tag) {
    case "Logo":
      return style.logo
    case "Sound":
      return style.sound.asset
    case "Font":
      return style.fonts[place.which]
    case "Localized":
      return style[place.key].asset?.[locale] ?? null
    case "Clip":
      return style[place.key].clips[place.ratio]?.[locale] ?? null
  }
}

const withLocale = (files: Localized | null | undefined, locale: string, file: SlotFile | null): Localized | null => {
  const { [locale]: _previous, ...others } = files ?? {}
  const next = file === null ? others : { ...others, [locale]: file }
  return Object.keys(next).length === 0 ? null : next
}

/** The style with one slot (and locale) holding `file`, or emptied when `file` is null. */
export const setSlot = (style: BrandStyle, place: SlotPlace, locale: string, file: SlotFile | null): BrandStyle => {
  switch (place._tag) {
    case "Logo":
      return { ...style, logo: file }
    case "Sound":
      return { ...style, sound: { ...style.sound, asset: file } }
    case "Font":
      return { ...style, fonts: { ...style.fonts, [place.which]: file } }
    case "Localized":
      return { ...style, [place.key]: { ...style[place.key], asset: withLocale(style[place.key].asset, locale, file) } }
    case "Clip": {
      const { [place.ratio]: previous, ...others } = style[place.key].clips
      const files = withLocale(previous, locale, file)
      const clips = files === null ? others : { ...others, [place.ratio]: files }
      return { ...style, [place.key]: { ...style[place.key], clips } }
    }
  }
}

const swap = (file: SlotFile | null, id: string, next: SlotFile | null) => file?.assetId === id ? next : file

const swapLocalized = (files: Localized | null, id: string, next: SlotFile | null): Localized | null => {
  if (files === null) return null
  const kept = Object.entries(files).flatMap(([locale, file]) => {
    const swapped = swap(file, id, next)
    return swapped === null ? [] : [[locale, swapped] as const]
  })
  return kept.length === 0 ? null : Object.fromEntries(kept)
}

const swapClips = (clips: Readonly<Record<string, Localized>>, id: string, next: SlotFile | null) =>
  Object.fromEntries(
    Object.entries(clips).flatMap(([ratio, files]) => {
      const swapped = swapLocalized(files, id, next)
      return swapped === null ? [] : [[ratio, swapped] as const]
    })
  )

/** Every slot holding the file `id` holds `next` instead (or is emptied when `next` is null). */
export const replaceFile = (style: BrandStyle, id: string, next: SlotFile | null): BrandStyle => ({
  ...style,
  logo: swap(style.logo, id, next),
  badge: { ...style.badge, asset: swapLocalized(style.badge.asset, id, next) },
  background: { ...style.background, asset: swapLocalized(style.background.asset, id, next) },
  intro: { ...style.intro, clips: swapClips(style.intro.clips, id, next) },
  outro: { ...style.outro, clips: swapClips(style.outro.clips, id, next) },
  sound: { ...style.sound, asset: swap(style.sound.asset, id, next) },
  fonts: {
    primary: swap(style.fonts.primary, id, next),
    secondary: swap(style.fonts.secondary, id, next),
    tertiary: swap(style.fonts.tertiary, id, next),
    frame: swap(style.fonts.frame, id, next)
  }
})

export const holds = (style: BrandStyle, id: string) => heldFiles(style).some((held) => held.file.assetId === id)

/** Applies a slot edit; `previous` is the file the `Set` slot held before (always null for `Swap`). */
export const applySlotEdit = (style: BrandStyle, edit: SlotEdit): { style: BrandStyle; previous: SlotFile | null } => {
  if (edit._tag === "Swap") return { style: replaceFile(style, edit.fileId, edit.next), previous: null }
  const place = slotPlace(edit.slot)
  return { style: setSlot(style, place, edit.locale, edit.file), previous: fileIn(style, place, edit.locale) }
}
