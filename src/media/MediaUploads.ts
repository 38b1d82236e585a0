import type { Multipart } from "@effect/platform"
import { Chunk, Context, Effect, Layer, Stream } from "effect"
import { detailAt, PayloadTooLarge, SchemaValidation } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { newUlid } from "../domain/Ulid.js"
import { BlobStorage } from "../storage/BlobStorage.js"
import type { StoredBlob } from "../storage/BlobStorage.js"
import { dimensionsOf, fitsPixelLimit, MAX_SIDE, type ReadAt, type Size } from "./Dimensions.js"
import { type Admit, inspect, type Inspected } from "./Inspect.js"
import { UPLOAD_CEILING } from "./MediaFile.js"
import { extensionOf, type Sniffed, SVG } from "./Sniff.js"
import { StorageUsage } from "./StorageUsage.js"
import { outsideReference } from "./SvgReferences.js"

const MB = 1024 * 1024

/** What a route takes from the sniffed type: its byte limit and how it is named, or a refusal. */
export type Accepts = (sniffed: Sniffed | undefined) => { readonly maxBytes: number; readonly what: string } | string

/** Where a new file's bytes go: slot uploads are marked by their folder (see `BrandSlots`). */
export type Folder = "library" | "brand"

/** Files uploaded through a brand slot route live in the `brand` folder (`media/<workspace>/brand/<id>`). */
export const uploadedIntoSlot = (blobKey: string) => blobKey.split("/")[2] === "brand"

export interface Received {
  readonly id: string
  readonly blobKey: string
  /** The file name as sent, cleaned of any path (an extension of the type added when it had none). */
  readonly name: string
  readonly sentName: string
  readonly sniffed: Sniffed
  readonly stored: StoredBlob
  readonly size: Size | null
  /** Text parts, by name (the last of a name wins). */
  readonly fields: ReadonlyMap<string, string>
}

type Refusal = PayloadTooLarge | SchemaValidation

const invalidFile = (message: string, rule: string) =>
  new SchemaValidation({ message, details: [detailAt(["file"], message, rule)] })

const cleanName = (raw: string) => (raw.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim()

const nameFor = (sent: string, sniffed: Sniffed) => {
  const clean = cleanName(sent)
  const base = clean === "" ? "file" : clean
  return extensionOf(base) === "" ? `${base}.${sniffed.extensions[0]}` : base
}

const multipartRefusal = (e: Multipart.MultipartError) => {
  switch (e.reason) {
    case "FileTooLarge":
    case "BodyTooLarge":
    case "FieldTooLarge":
      return new PayloadTooLarge({ message: `The upload is over the ${UPLOAD_CEILING / MB} MB ceiling.` })
    case "TooManyParts":
      return new SchemaValidation({ message: "Too many parts: send one file and the text parts replace or replaces." })
    default:
      return new SchemaValidation({
        message: "The multipart body could not be read.",
        details: [detailAt([], `The multipart body could not be read (${e.reason}).`)]
      })
  }
}

/**
 * Receives a multipart upload: the first file part streams to the blob store while its type is sniffed and its limits
 * enforced (the read stops at the first byte over), later file parts are drained unread, text parts are collected.
 * Pictures get their size from the header. Whatever fails, nothing is left in the store.
 */
const make = Effect.gen(function*() {
  const blobs = yield* BlobStorage
  const usage = yield* StorageUsage

  const admitter = (accepts: Accepts, shareLeft: number, mediaShare: number): Admit<Refusal> => (sniffed) => {
    const verdict = accepts(sniffed)
    if (typeof verdict === "string") return Effect.fail(invalidFile(verdict, "fileType"))
    const limit = Math.min(verdict.maxBytes, UPLOAD_CEILING)
    if (shareLeft < limit) {
      const message = `The file does not fit the media library's share of storage (${mediaShare} bytes, ` +
        `${Math.max(0, shareLeft)} bytes free); delete media or move the storage split.`
      return Effect.succeed({ maxBytes: Math.max(0, shareLeft), tooLarge: () => new PayloadTooLarge({ message }) })
    }
    const message = `${verdict.what} may be at most ${limit / MB} MB.`
    return Effect.succeed({ maxBytes: limit, tooLarge: () => new PayloadTooLarge({ message }) })
  }

  const readAt = (key: string, byteSize: number, head: Uint8Array): ReadAt => (offset, length) =>
    offset + length <= head.length || byteSize <= head.length
      ? Effect.succeed(head.subarray(offset, offset + length))
      : blobs.readStream(key, { start: offset, end: offset + length - 1 }).pipe(
        Stream.runCollect,
        Effect.map((chunks) => new Uint8Array(Buffer.concat(Chunk.toReadonlyArray(chunks)))),
        Effect.orElseSucceed(() => new Uint8Array(0))
      )

  const pictureSize = (key: string, stored: StoredBlob, inspected: Inspected) =>
    Effect.gen(function*() {
      const { head, sniffed } = inspected
      if (sniffed.kind !== "Image" || sniffed.mimeType === "image/svg+xml") return null
      const size = yield* dimensionsOf(sniffed.mimeType, readAt(key, stored.byteSize, head))
      if (size === undefined) {
        return yield* invalidFile("The picture's size cannot be read from its header.", "dimensions")
      }
      if (!fitsPixelLimit(size)) {
        const message = `The picture is ${size.width}×${size.height}; at most ${MAX_SIDE}×${MAX_SIDE} is taken.`
        return yield* invalidFile(message, "maxPixels")
      }
      return size
    })

  /** An SVG may reach nothing outside itself (see `outsideReference`): a logo must never draw a file of the server. */
  const selfContained = (key: string, stored: StoredBlob, inspected: Inspected) =>
    Effect.gen(function*() {
      if (inspected.sniffed.mimeType !== SVG.mimeType) return
      const bytes = yield* readAt(key, stored.byteSize, new Uint8Array(0))(0, stored.byteSize)
      const found = outsideReference(new TextDecoder("utf-8", { fatal: false }).decode(bytes))
      if (found === undefined) return
      const message = `The SVG refers to something outside the file (${found}); only #fragment references and ` +
        "embedded pictures (data:image/png, jpeg, gif or webp) are taken."
      return yield* invalidFile(message, "svgExternalReference")
    })

  /**
   * `credit`: bytes freed when this upload lands (a file it replaces), asked with the text parts seen so far and the
   * file's name when the file part starts.
   */
  const receive = Effect.fn("MediaUploads.receive")(function*(
    workspaceId: WorkspaceId,
    parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>,
    options: {
      readonly folder: Folder
      readonly accepts: Accepts
      readonly credit: (fields: ReadonlyMap<string, string>, fileName: string) => Effect.Effect<number>
    }
  ) {
    const id = newUlid()
    const blobKey = `media/${workspaceId}/${options.folder}/${id}`
    const fields = new Map<string, string>()
    let file: { sentName: string; stored: StoredBlob; inspected: Inspected } | undefined

    const store = (part: Multipart.File) =>
      Effect.gen(function*() {
        const block = yield* usage.storageBlock(workspaceId)
        const shareLeft = block.media.remainingBytes + (yield* options.credit(fields, part.name))
        const admit = admitter(options.accepts, shareLeft, block.media.maxBytes)
        const { inspected, stream } = yield* inspect(part.content, part.name, admit)
        const stored = yield* blobs.putStream(blobKey, stream, { maxBytes: UPLOAD_CEILING })
        const seen = inspected()
        if (seen === undefined) return yield* Effect.dieMessage("An upload ended without being inspected.")
        file = { sentName: part.name, stored, inspected: seen }
      })

    return yield* Effect.gen(function*() {
      yield* Stream.runForEach(parts, (part) => {
        if (part._tag === "Field") return Effect.sync(() => fields.set(part.key, part.value))
        return file === undefined ? store(part) : Stream.runDrain(part.content)
      }).pipe(
        Effect.catchTags({
          MultipartError: (e) => Effect.fail(multipartRefusal(e)),
          BlobTooLarge: () =>
            Effect.fail(new PayloadTooLarge({ message: `The upload is over ${UPLOAD_CEILING / MB} MB.` }))
        })
      )
      if (file === undefined) return yield* invalidFile("Send exactly one file part (multipart/form-data).", "required")
      const { inspected, sentName, stored } = file
      const size = yield* pictureSize(blobKey, stored, inspected)
      yield* selfContained(blobKey, stored, inspected)
      const name = nameFor(sentName, inspected.sniffed)
      if (name.length > 200) return yield* invalidFile("The file name may be at most 200 characters.", "maxLength")
      return { id, blobKey, name, sentName, sniffed: inspected.sniffed, stored, size, fields } satisfies Received
    }).pipe(Effect.onError(() => blobs.delete(blobKey)))
  })

  return { receive, discard: (received: Received) => blobs.delete(received.blobKey) }
})

export class MediaUploads extends Context.Tag("clipwright/media/MediaUploads")<
  MediaUploads,
  Effect.Effect.Success<typeof make>
>() {
  /** Needs `BlobStorage` and `StorageUsage`. */
  static readonly layer = Layer.effect(MediaUploads, make)
}
