import type { Multipart } from "@effect/platform"
import { Context, Effect, Layer, Option, type Stream } from "effect"
import { detailAt, LocaleNotSupported, NotFound, SchemaValidation } from "../domain/Errors.js"
import type { Principal, WorkspaceId } from "../domain/Principal.js"
import { type SlotRule, slotRule } from "../media/MediaFile.js"
import { MediaFiles } from "../media/MediaFiles.js"
import { MediaLibrary, rowOf } from "../media/MediaLibrary.js"
import type { MediaRecord } from "../media/MediaRecord.js"
import { type Accepts, MediaUploads, uploadedIntoSlot } from "../media/MediaUploads.js"
import { extensionOf } from "../media/Sniff.js"
import { StorageUsage } from "../media/StorageUsage.js"
import { BlobStorage } from "../storage/BlobStorage.js"
import { isLocale } from "../templates/Locales.js"
import { BrandRepo } from "./BrandRepo.js"
import { BrandSlotHolders, slotFileOf } from "./BrandSlotHolders.js"
import type { SlotFile } from "./BrandStyle.js"
import { DEFAULT_LOCALE } from "./SlotStyle.js"

const MB = 1024 * 1024
const typeNames: Record<string, string> = {
  "image/png": "PNG",
  "image/jpeg": "JPEG",
  "image/webp": "WebP",
  "image/svg+xml": "SVG",
  "video/mp4": "MP4",
  "audio/mpeg": "MP3",
  "audio/wav": "WAV",
  "font/woff2": "WOFF2",
  "font/woff": "WOFF",
  "font/ttf": "TTF",
  "font/otf": "OTF"
}
const takes = (rule: SlotRule) => {
  const types = rule.mimeTypes.map((t) => typeNames[t] ?? t).join(", ")
  return `The ${rule.slot} slot takes ${types} up to ${rule.maxBytes / MB} MB.`
}

const slotAccepts = (rule: SlotRule): Accepts => (sniffed) =>
  sniffed !== undefined && rule.mimeTypes.includes(sniffed.mimeType)
    ? { maxBytes: rule.maxBytes, what: `A file for the ${rule.slot} slot` }
    : `${takes(rule)} The type is read from the file's bytes.`

/** `name`, or `stem (2).ext`, `stem (3).ext`… */
const nameNumbered = (name: string, n: number) => {
  if (n === 1) return name
  const ext = extensionOf(name)
  const stem = ext === "" ? name : name.slice(0, -(ext.length + 1))
  return ext === "" ? `${stem} (${n})` : `${stem} (${n}).${ext}`
}

/**
 * Brand slots (SPEC "Brands"): a slot's file is a media library file (it counts against storage and is listed in
 * /v1/media); the reference is written into the stored style by the brand entity. The file a slot held before goes
 * too when it was uploaded into a slot and no slot of any brand holds it any more; a library file that was linked
 * stays in the library.
 */
const make = Effect.gen(function*() {
  const media = yield* MediaFiles
  const brands = yield* BrandRepo
  const library = yield* MediaLibrary
  const uploads = yield* MediaUploads
  const holders = yield* BrandSlotHolders
  const blobs = yield* BlobStorage
  const usage = yield* StorageUsage

  /** The slot, its locale key and the brand, checked before any byte of an upload is read. */
  const target = (workspaceId: WorkspaceId, brandId: string, slot: string, locale: string | undefined) =>
    Effect.gen(function*() {
      const rule = slotRule(slot)
      if (rule === undefined) return yield* new NotFound({ message: `No brand slot ${slot}.` })
      if (Option.isNone(yield* brands.findLive(workspaceId, brandId))) {
        return yield* new NotFound({ message: `No brand ${brandId}.` })
      }
      if (!rule.localized && locale !== undefined) {
        const message = `The ${slot} slot is not per language; send no locale.`
        return yield* new SchemaValidation({ message, details: [detailAt(["locale"], message, "notLocalized")] })
      }
      if (locale !== undefined && !isLocale(locale)) {
        return yield* new LocaleNotSupported({ message: `${locale} is not a locale (ISO 639-1, zh-CN, zh-TW, pt-BR).` })
      }
      return { rule, locale: locale ?? DEFAULT_LOCALE }
    })

  /** The previous file goes when it was uploaded into a slot and nothing holds it now. */
  const release = (workspaceId: WorkspaceId, previous: SlotFile | null, kept: string) =>
    Effect.gen(function*() {
      if (previous === null || previous.assetId === kept) return
      const row = yield* media.find(workspaceId, previous.assetId)
      if (Option.isNone(row) || !uploadedIntoSlot(row.value.blobKey)) return
      if (yield* holders.isHeld(workspaceId, row.value.id)) return
      const removed = yield* media.remove(workspaceId, row.value.id)
      if (Option.isSome(removed)) yield* blobs.delete(removed.value)
    })

  /** Writes the slot, then lets the file it held before go (see `release`). */
  const put = (workspaceId: WorkspaceId, brandId: string, slot: string, locale: string, row: MediaRecord | null) =>
    Effect.map(
      holders.edit(workspaceId, brandId, { _tag: "Set", slot, locale, file: row === null ? null : slotFileOf(row) }),
      (edited) => ({ brand: edited.brand, release: release(workspaceId, edited.previous, row?.id ?? "") })
    )

  const upload = Effect.fn("BrandSlots.upload")(function*(
    principal: Principal,
    brandId: string,
    slot: string,
    localeQuery: string | undefined,
    parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>
  ) {
    const workspaceId = principal.workspaceId
    const { locale, rule } = yield* target(workspaceId, brandId, slot, localeQuery)
    const received = yield* uploads.receive(workspaceId, parts, {
      folder: "brand",
      accepts: slotAccepts(rule),
      credit: () => Effect.succeed(0)
    })
    // A slot upload never clashes: it takes the first free name.
    const inserted = yield* usage.storeMedia(
      workspaceId,
      received.stored.byteSize,
      Effect.gen(function*() {
        for (let n = 1; n <= 100; n++) {
          const row = yield* media.insert(workspaceId, rowOf(principal, received, nameNumbered(received.name, n)))
          if (Option.isSome(row)) return row.value
        }
        return yield* Effect.dieMessage(`No free name for ${received.name}.`)
      })
    ).pipe(Effect.onError(() => uploads.discard(received)))
    // The new file stays only if the slot holds it.
    const { brand, release } = yield* put(workspaceId, brandId, slot, locale, inserted).pipe(
      Effect.onError(() => Effect.zipRight(media.remove(workspaceId, inserted.id), uploads.discard(received)))
    )
    yield* release
    return { brand, file: yield* library.view(inserted) }
  })

  const link = Effect.fn("BrandSlots.link")(function*(
    workspaceId: WorkspaceId,
    brandId: string,
    slot: string,
    localeQuery: string | undefined,
    url: string
  ) {
    const { locale, rule } = yield* target(workspaceId, brandId, slot, localeQuery)
    const invalid = (message: string, rule: string) =>
      new SchemaValidation({ message, details: [detailAt(["url"], message, rule)] })
    const ref = /^media:\/\/(.+)$/.exec(url)?.[1]
    if (ref === undefined) return yield* invalid("Link a library file as media://<id> (or media://<name>).", "mediaRef")
    const found = yield* media.findByRef(workspaceId, ref)
    if (Option.isNone(found)) return yield* new NotFound({ message: `No media file ${ref}.` })
    const row = found.value
    if (!rule.mimeTypes.includes(row.mimeType) || row.byteSize > rule.maxBytes) {
      return yield* invalid(`${takes(rule)} ${row.name} is ${row.mimeType}, ${row.byteSize} bytes.`, "slotType")
    }
    const { brand, release } = yield* put(workspaceId, brandId, slot, locale, row)
    yield* release
    return { brand, file: yield* library.view(row) }
  })

  const clear = Effect.fn("BrandSlots.clear")(function*(
    workspaceId: WorkspaceId,
    brandId: string,
    slot: string,
    localeQuery: string | undefined
  ) {
    const { locale } = yield* target(workspaceId, brandId, slot, localeQuery)
    const { brand, release } = yield* put(workspaceId, brandId, slot, locale, null)
    yield* release
    return { brand }
  })

  return { upload, link, clear }
})

export class BrandSlots extends Context.Tag("clipwright/brands/BrandSlots")<
  BrandSlots,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(BrandSlots, make)
}
