import { Schema } from "effect"
import { Ratio } from "../templates/TemplateShapes.js"
import { StorageBlock } from "./StorageBlock.js"

const MB = 1024 * 1024

export const MediaKind = Schema.Literal("Image", "Video", "Audio", "Font")
export type MediaKind = typeof MediaKind.Type

/** SPEC "Media file"; `width` and `height` are added for pictures (null for other kinds and SVG). */
export const MediaFile = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  mimeType: Schema.String,
  kind: MediaKind,
  byteSize: Schema.Number,
  width: Schema.NullOr(Schema.Number),
  height: Schema.NullOr(Schema.Number),
  createdAt: Schema.String,
  uploadedBy: Schema.String,
  ref: Schema.String,
  url: Schema.String
})
export type MediaFile = typeof MediaFile.Type

export const MediaUpload = Schema.Struct({ file: MediaFile, storage: StorageBlock })
export const MediaList = Schema.Struct({ files: Schema.Array(MediaFile), storage: StorageBlock })

export const MediaName = Schema.String.pipe(
  Schema.minLength(1, { message: () => "a name of 1 to 200 characters" }),
  Schema.maxLength(200, { message: () => "a name of 1 to 200 characters" })
)
export const RenameBody = Schema.Struct({ name: MediaName })

/** A brand slot holding a file (`locale` for per-language slots). */
export const BrandSlotUse = Schema.Struct({
  kind: Schema.Literal("brandSlot"),
  brandId: Schema.String,
  brandName: Schema.String,
  slot: Schema.String,
  locale: Schema.optional(Schema.String)
})

/** A scheduled post of a post list whose data refers to the file. */
export const ScheduledPostUse = Schema.Struct({
  kind: Schema.Literal("scheduledPost"),
  queueId: Schema.String,
  queueName: Schema.String,
  packageId: Schema.String,
  title: Schema.String,
  scheduledFor: Schema.String
})

/** One holder of a file: a brand slot or a scheduled post. */
export const MediaUse = Schema.Union(BrandSlotUse, ScheduledPostUse)
export type MediaUse = typeof MediaUse.Type

export const PreviewQuery = Schema.Struct({ exp: Schema.optional(Schema.String), sig: Schema.optional(Schema.String) })

/** One upload at most, whatever it is (SPEC Limits). */
export const UPLOAD_CEILING = 50 * MB

/** Per kind in the library. The spec states none for pictures; 10 MB is this project's reading. */
export const kindLimits: Record<MediaKind, number> = { Image: 10 * MB, Video: 5 * MB, Audio: 20 * MB, Font: 10 * MB }

export const mediaRef = (id: string) => `media://${id}`

const IMAGES = ["image/png", "image/jpeg", "image/webp"]
const FONTS = ["font/woff2", "font/woff", "font/ttf", "font/otf"]

/** What a brand slot takes (SPEC Limits); `localized` slots hold one file per `locale` ("default" without one). */
export interface SlotRule {
  readonly slot: string
  readonly mimeTypes: ReadonlyArray<string>
  readonly maxBytes: number
  readonly localized: boolean
}

const rule = (slot: string, mimeTypes: ReadonlyArray<string>, maxMb: number, localized: boolean): SlotRule => ({
  slot,
  mimeTypes,
  maxBytes: maxMb * MB,
  localized
})

const fixedSlots: Record<string, SlotRule> = {
  logo: rule("logo", [...IMAGES, "image/svg+xml"], 5, false),
  background: rule("background", [...IMAGES, "video/mp4"], 50, true),
  badge: rule("badge", [...IMAGES, "video/mp4"], 20, true),
  sound: rule("sound", ["audio/mpeg", "audio/wav"], 20, false),
  "font-primary": rule("font-primary", FONTS, 10, false),
  "font-secondary": rule("font-secondary", FONTS, 10, false),
  "font-tertiary": rule("font-tertiary", FONTS, 10, false),
  "font-frame": rule("font-frame", FONTS, 10, false)
}

const CLIP_SLOT = /^(intro|outro)-(.+)$/
const ratios: ReadonlyArray<string> = Ratio.literals

/** The rule of a slot name such as `logo` or `intro-9x16`; `undefined` for a slot that does not exist. */
export const slotRule = (slot: string): SlotRule | undefined => {
  if (Object.hasOwn(fixedSlots, slot)) return fixedSlots[slot]
  const clip = CLIP_SLOT.exec(slot)
  return clip !== null && ratios.includes(clip[2]!) ? rule(slot, ["video/mp4"], 50, true) : undefined
}

/** Where a slot lives in the brand style document (`src/domain/Brand.ts`). */
export type SlotPlace =
  | { readonly _tag: "Logo" }
  | { readonly _tag: "Sound" }
  | { readonly _tag: "Font"; readonly which: FontSlot }
  | { readonly _tag: "Localized"; readonly key: "badge" | "background" }
  | { readonly _tag: "Clip"; readonly key: "intro" | "outro"; readonly ratio: string }

type FontSlot = "primary" | "secondary" | "tertiary" | "frame"
const fontSlots = new Map<string, FontSlot>(
  (["primary", "secondary", "tertiary", "frame"] as const).map((which) => [`font-${which}`, which])
)

/** Where a known slot (one `slotRule` accepts) lives in the style. */
export const slotPlace = (slot: string): SlotPlace => {
  if (slot === "logo") return { _tag: "Logo" }
  if (slot === "sound") return { _tag: "Sound" }
  if (slot === "badge" || slot === "background") return { _tag: "Localized", key: slot }
  const font = fontSlots.get(slot)
  if (font !== undefined) return { _tag: "Font", which: font }
  const clip = CLIP_SLOT.exec(slot)
  return { _tag: "Clip", key: clip?.[1] === "outro" ? "outro" : "intro", ratio: clip?.[2] ?? "" }
}

const SlotFileSchema = Schema.Struct({
  assetId: Schema.String,
  fileName: Schema.String,
  mimeType: Schema.String,
  url: Schema.String
})

/**
 * A change to the file slots of one brand's style, applied by the brand entity (the brand row's only writer): `Set`
 * puts a file into one slot and locale (null empties it), `Swap` moves every slot holding `fileId` to `next` (null
 * empties them).
 */
export const SlotEdit = Schema.Union(
  Schema.TaggedStruct("Set", { slot: Schema.String, locale: Schema.String, file: Schema.NullOr(SlotFileSchema) }),
  Schema.TaggedStruct("Swap", { fileId: Schema.String, next: Schema.NullOr(SlotFileSchema) })
)
export type SlotEdit = typeof SlotEdit.Type

export const slotEditKey = (edit: SlotEdit) =>
  edit._tag === "Set" ? `set:${edit.slot}:${edit.locale}` : `swap:${edit.fileId}:${edit.next?.assetId ?? ""}`
