import { Clock, Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "../../Config.js"
import { Conflict, Forbidden, NotFound } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { StorageUsage } from "../../media/StorageUsage.js"
import { Signing } from "../../storage/Signing.js"
import type { ListedClip } from "../ClipRecord.js"
import { ClipRemovedListeners } from "./ClipRemovedListeners.js"
import { ClipRepo } from "./ClipRepo.js"
import {
  ASSET_URL_TTL,
  assetDownloadPath,
  type AssetMetadata,
  CLIP_MIME_TYPE,
  type RenderedClip
} from "./RenderedClip.js"

/** What the signed download serves. */
export interface ClipFile {
  readonly blobKey: string
  readonly sha256: string
}

const missing = (id: string) => new NotFound({ message: `No rendered clip ${id}.` })

const removed = (id: string) =>
  new NotFound({ message: `Rendered clip ${id} was removed (to make room, or deleted); its record remains.` })

/**
 * Rendered clips of the media library (`/v1/media/renders`), their asset metadata and signed downloads. A clip of
 * another workspace, or an id that is not a rendered clip (a media library file), answers like a missing one.
 */
const make = Effect.gen(function*() {
  const repo = yield* ClipRepo
  const storage = yield* StorageUsage
  const listeners = yield* ClipRemovedListeners
  const signing = yield* Signing
  const { publicBaseUrl } = yield* AppConfig

  const signedUrl = (clipId: string) => signing.signedUrl(publicBaseUrl, assetDownloadPath(clipId), ASSET_URL_TTL)

  /** The workspace's clip with its bytes still stored. */
  const storedClip = (workspaceId: WorkspaceId, id: string) =>
    Effect.flatMap(
      repo.clip(workspaceId, id),
      Option.match({
        onNone: () => Effect.fail(missing(id)),
        onSome: (clip) => clip.stored ? Effect.succeed(clip) : Effect.fail(removed(id))
      })
    )

  const view = (clip: ListedClip) =>
    Effect.map(signedUrl(clip.id), ({ url }): RenderedClip => ({
      id: clip.id,
      kind: "video",
      mimeType: CLIP_MIME_TYPE,
      byteSize: clip.byteSize,
      ratio: clip.ratio,
      locale: clip.locale,
      width: clip.width,
      height: clip.height,
      durationMs: clip.durationMs,
      createdAt: clip.createdAt.toISOString(),
      templateId: clip.templateId,
      templateName: clip.templateName,
      channelName: clip.channelName,
      url,
      needed: clip.needed,
      neededBecause: clip.neededBecause
    }))

  /** The clips storage holds for the workspace (kept, not removed), newest first. */
  const list = Effect.fn("RenderedClips.list")(function*(workspaceId: WorkspaceId) {
    return { clips: yield* Effect.forEach(yield* repo.keptClips(workspaceId), view) }
  })

  /** `expiresAt` is when the signed URL stops working (earlier when an unkept clip's file goes first). */
  const metadata = Effect.fn("RenderedClips.metadata")(function*(workspaceId: WorkspaceId, id: string) {
    const clip = yield* storedClip(workspaceId, id)
    const signed = yield* signedUrl(clip.id)
    const expiresAt = clip.expiresAt !== null && clip.expiresAt < signed.expiresAt ? clip.expiresAt : signed.expiresAt
    return {
      assetId: clip.id,
      kind: "video",
      ratio: clip.ratio,
      locale: clip.locale,
      mimeType: CLIP_MIME_TYPE,
      width: clip.width,
      height: clip.height,
      durationMs: clip.durationMs,
      byteSize: clip.byteSize,
      sha256: clip.sha256,
      url: signed.url,
      expiresAt: expiresAt.toISOString()
    } satisfies AssetMetadata
  })

  /** No bearer: the signature names the file. A bad signature is refused before anything about the clip is said. */
  const signedFile = Effect.fn("RenderedClips.signedFile")(
    function*(id: string, exp: string | undefined, sig: string | undefined) {
      const now = new Date(yield* Clock.currentTimeMillis)
      const valid = exp !== undefined && sig !== undefined && signing.verify(assetDownloadPath(id), exp, sig, now)
      if (!valid) return yield* new Forbidden({ message: "This asset URL is wrong, tampered with or expired." })
      const clip = Option.getOrUndefined(yield* repo.clipAnyWorkspace(id))
      if (clip === undefined) return yield* missing(id)
      if (!clip.stored) return yield* removed(id)
      return { blobKey: clip.blobKey, sha256: clip.sha256 } satisfies ClipFile
    }
  )

  /**
   * Refused while a post still to publish relies on the clip; otherwise the jobs still waiting on it for approval
   * are cancelled, and the record stays, marked removed.
   */
  const remove = Effect.fn("RenderedClips.remove")(function*(workspaceId: WorkspaceId, id: string) {
    const clip = yield* storedClip(workspaceId, id)
    if (clip.needed) {
      return yield* new Conflict({ message: `Rendered clip ${id} is still needed: ${clip.neededBecause ?? "a post"}.` })
    }
    // Waiting jobs first: a delete that fails after this is retried while the clip is still there to find.
    yield* listeners.removed(workspaceId, clip.id, clip.renderJobId)
    yield* storage.removeClip(workspaceId, clip)
    return { deleted: true as const }
  })

  return { list, metadata, signedFile, remove }
})

export class RenderedClips extends Context.Tag("clipwright/renders/clips/RenderedClips")<
  RenderedClips,
  Effect.Effect.Success<typeof make>
>() {
  /** Brings `Signing` (memoised with its other uses). */
  static readonly layer = Layer.effect(RenderedClips, make).pipe(Layer.provide(Signing.layer))
}
