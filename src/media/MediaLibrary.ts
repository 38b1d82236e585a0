import type { Multipart } from "@effect/platform"
import { Clock, Context, DateTime, Effect, Layer, Option, type Stream } from "effect"
import { AppConfig } from "../Config.js"
import { Conflict, detailAt, Forbidden, NotFound } from "../domain/Errors.js"
import { actorOf, type Principal, type WorkspaceId } from "../domain/Principal.js"
import { BlobStorage } from "../storage/BlobStorage.js"
import { Signing } from "../storage/Signing.js"
import { kindLimits, type MediaFile, mediaRef } from "./MediaFile.js"
import { MediaHolders } from "./MediaHolders.js"
import { MediaRecord, type NewMediaFile } from "./MediaRecord.js"
import { MediaRepo } from "./MediaRepo.js"
import { type Accepts, MediaUploads, type Received } from "./MediaUploads.js"
import { withExtension } from "./Sniff.js"
import { StorageUsage } from "./StorageUsage.js"

/** Signed preview URLs are valid about an hour (SPEC Limits). */
const PREVIEW_TTL = "1 hour"

export const previewPath = (id: string) => `/v1/media/${encodeURIComponent(id)}/preview`

const KINDS = "PNG, JPEG, WebP, GIF, SVG, MP4, MP3, WAV, or a font (.woff2, .woff, .ttf, .otf)"

const kindNames = { Image: "An image", Video: "A video", Audio: "A sound file", Font: "A font" } as const

/** The library takes every type it knows, each kind up to its limit. */
const libraryAccepts: Accepts = (sniffed) =>
  sniffed === undefined
    ? `The file is not a type the media library stores (${KINDS}); its type is read from its bytes.`
    : { maxBytes: kindLimits[sniffed.kind], what: kindNames[sniffed.kind] }

export const uploaderOf = (principal: Principal) => actorOf(principal)

export const rowOf = (principal: Principal, received: Received, name: string): NewMediaFile => ({
  id: received.id,
  name,
  mimeType: received.sniffed.mimeType,
  kind: received.sniffed.kind,
  byteSize: received.stored.byteSize,
  sha256: received.stored.sha256,
  blobKey: received.blobKey,
  width: received.size?.width ?? null,
  height: received.size?.height ?? null,
  uploadedBy: uploaderOf(principal)
})

const nameTaken = (name: string) =>
  new Conflict({
    message: `A file named ${JSON.stringify(name)} is already in the media library; send replace=true to replace it, ` +
      "or replaces=<id>, or rename one of them.",
    details: [detailAt(["file"], "name in use", "unique")]
  })

/** The media library (SPEC "Media library"): tenant-scoped rows in `media_files`, bytes in the blob store. */
const make = Effect.gen(function*() {
  const repo = yield* MediaRepo
  const holders = yield* MediaHolders
  const uploads = yield* MediaUploads
  const usage = yield* StorageUsage
  const blobs = yield* BlobStorage
  const signing = yield* Signing
  const { publicBaseUrl } = yield* AppConfig

  const view = (row: MediaRecord) =>
    Effect.map(signing.signedUrl(publicBaseUrl, previewPath(row.id), PREVIEW_TTL), ({ url }): MediaFile => ({
      id: row.id,
      name: row.name,
      mimeType: row.mimeType,
      kind: row.kind,
      byteSize: row.byteSize,
      width: row.width,
      height: row.height,
      createdAt: DateTime.formatIso(row.createdAt),
      uploadedBy: row.uploadedBy,
      ref: mediaRef(row.id),
      url
    }))

  const existing = (workspaceId: WorkspaceId, id: string) =>
    Effect.flatMap(
      repo.find(workspaceId, id),
      Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `No media file ${id}.` })),
        onSome: Effect.succeed
      })
    )

  /** The file a `replaces` or `replace` text part names; `credit` asks before the bytes arrive. */
  const targetOf = (workspaceId: WorkspaceId, fields: ReadonlyMap<string, string>, name: string) => {
    const replaces = fields.get("replaces")
    if (replaces !== undefined && replaces !== "") return Effect.map(existing(workspaceId, replaces), Option.some)
    return fields.get("replace") === "true" ? repo.findByName(workspaceId, name) : Effect.succeed(Option.none())
  }

  const credit = (workspaceId: WorkspaceId) => (fields: ReadonlyMap<string, string>, name: string) =>
    targetOf(workspaceId, fields, name).pipe(
      Effect.map(Option.match({ onNone: () => 0, onSome: (row) => row.byteSize })),
      Effect.orElseSucceed(() => 0)
    )

  /** Stores the new row; a replaced file's row goes in the same transaction. */
  const commit = (workspaceId: WorkspaceId, row: NewMediaFile, replaced: Option.Option<MediaRecord>) =>
    repo.withTransaction(Effect.gen(function*() {
      if (Option.isSome(replaced)) yield* repo.remove(workspaceId, replaced.value.id)
      const inserted = yield* repo.insert(workspaceId, row)
      return Option.isSome(inserted) ? inserted.value : yield* nameTaken(row.name)
    }))

  /** After the commit: the brand slots holding the replaced file move to the new one, then its bytes go. */
  const handOver = (landed: MediaRecord, replaced: Option.Option<MediaRecord>) =>
    Option.isNone(replaced) ? Effect.void : Effect.zipRight(
      holders.repoint(landed.workspaceId, replaced.value.id, landed),
      blobs.delete(replaced.value.blobKey)
    )

  const upload = Effect.fn("MediaLibrary.upload")(function*(
    principal: Principal,
    parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>
  ) {
    const workspaceId = principal.workspaceId
    const received = yield* uploads.receive(workspaceId, parts, {
      folder: "library",
      accepts: libraryAccepts,
      credit: credit(workspaceId)
    })
    // Until the row is committed, a refusal leaves nothing behind.
    const { landed, target } = yield* Effect.gen(function*() {
      const target = yield* targetOf(workspaceId, received.fields, received.name)
      if (Option.isSome(target) && target.value.kind !== received.sniffed.kind) {
        const { id, kind } = target.value
        const message = `A ${received.sniffed.kind} file cannot replace ${id}, a ${kind} file.`
        return yield* new Conflict({ message, details: [detailAt(["replaces"], message, "sameKind")] })
      }
      const byId = received.fields.get("replaces") !== undefined
      const name = Option.isSome(target) && byId
        ? withExtension(target.value.name, received.sniffed, received.sentName)
        : received.name
      const row = rowOf(principal, received, name)
      return { landed: yield* usage.storeMedia(workspaceId, row.byteSize, commit(workspaceId, row, target)), target }
    }).pipe(Effect.onError(() => uploads.discard(received)))
    yield* handOver(landed, target)
    return { file: yield* view(landed), storage: yield* usage.storageBlock(workspaceId) }
  })

  const list = Effect.fn("MediaLibrary.list")(function*(workspaceId: WorkspaceId) {
    const rows = yield* repo.list(workspaceId)
    return { files: yield* Effect.forEach(rows, view), storage: yield* usage.storageBlock(workspaceId) }
  })

  const rename = Effect.fn("MediaLibrary.rename")(function*(workspaceId: WorkspaceId, id: string, name: string) {
    const row = yield* existing(workspaceId, id)
    if (!(yield* repo.rename(workspaceId, id, name))) return yield* nameTaken(name)
    const renamed = new MediaRecord({ ...row, name })
    if (row.name !== name) yield* holders.repoint(workspaceId, id, renamed)
    return { file: yield* view(renamed) }
  })

  /** Removes the row, empties every brand slot holding the file, then removes its bytes. */
  const remove = Effect.fn("MediaLibrary.delete")(function*(workspaceId: WorkspaceId, id: string) {
    const removed = yield* repo.remove(workspaceId, id)
    if (Option.isNone(removed)) return yield* new NotFound({ message: `No media file ${id}.` })
    yield* holders.repoint(workspaceId, id, null)
    yield* blobs.delete(removed.value)
    return { deleted: true as const, id }
  })

  const uses = Effect.fn("MediaLibrary.uses")(function*(workspaceId: WorkspaceId, id: string) {
    yield* existing(workspaceId, id)
    return { uses: yield* holders.uses(workspaceId, id) }
  })

  /** The signature is the authority: no workspace is asked. A wrong or expired one is 403, a gone file 404. */
  const previewFile = Effect.fn("MediaLibrary.previewFile")(function*(id: string, exp: string, sig: string) {
    const now = new Date(yield* Clock.currentTimeMillis)
    if (!signing.verify(previewPath(id), exp, sig, now)) {
      const message = "The preview link is wrong or has expired; list the media for a fresh one."
      return yield* new Forbidden({ message })
    }
    return yield* Effect.flatMap(
      repo.findAnyWorkspace(id),
      Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `No media file ${id}.` })),
        onSome: Effect.succeed
      })
    )
  })

  return { upload, list, rename, remove, uses, previewFile, view }
})

export class MediaLibrary extends Context.Tag("clipwright/media/MediaLibrary")<
  MediaLibrary,
  Effect.Effect.Success<typeof make>
>() {
  /** Brings `Signing` (memoised with its other uses). */
  static readonly layer = Layer.effect(MediaLibrary, make).pipe(Layer.provide(Signing.layer))
}
