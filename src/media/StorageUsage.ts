import { Context, Effect, Layer, Option } from "effect"
import { Conflict, detailAt, NotFound, PayloadTooLarge } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { BlobStorage } from "../storage/BlobStorage.js"
import { isStoreUnavailable } from "../storage/Errors.js"
import { ClipNeeds } from "./ClipNeeds.js"
import { storageBlock as blockOf } from "./StorageBlock.js"
import { type HeldClipRow, StorageRepo } from "./StorageRepo.js"
import { clipsShareBytes, mediaShareBytes, oldestToRemove } from "./StorageSplit.js"

/** What keeping a clip did: whether it is kept, and which older clips were removed to make room for it. */
export interface ClipRoom {
  readonly kept: boolean
  readonly removed: ReadonlyArray<string>
}

/**
 * The one source of truth for storage: the block of SPEC "Media file" (media files not deleted, kept clips still
 * stored), whether media fits its share, and making room for clips. Room is made by removing the oldest kept clips
 * first: the blob goes, the clip record stays with `stored` and `kept` false. Decisions of one workspace run one at a
 * time (the workspace row is locked), so two clips finishing together cannot both squeeze into the same room.
 */
const make = Effect.gen(function*() {
  const repo = yield* StorageRepo
  const blobs = yield* BlobStorage
  const needs = yield* ClipNeeds

  const found = <A>(workspaceId: WorkspaceId) =>
    Option.match({
      onNone: () => Effect.fail(new NotFound({ message: `No workspace ${workspaceId}.` })),
      onSome: (a: A) => Effect.succeed(a)
    })
  const factsOf = (workspaceId: WorkspaceId) => Effect.flatMap(repo.facts(workspaceId), found(workspaceId))
  /** Only the allowance and split: keeping clips never reads the media library. */
  const clipsShareOf = (workspaceId: WorkspaceId) =>
    Effect.flatMap(repo.allowance(workspaceId), found(workspaceId)).pipe(
      Effect.map((a) => clipsShareBytes(a.storageMb, a.mediaSharePercent))
    )

  /**
   * Blobs go once the transaction that marked them removed has committed; a missing blob is fine. With the object
   * store down the file stays for the orphan sweep (its clip is no longer stored): the removal is decided, and a render
   * announcing its end (which keeps its clips here) must not die with it and leave its jobs unheard.
   */
  const dropBlob = (clip: HeldClipRow) =>
    blobs.delete(clip.blobKey).pipe(
      Effect.catchAllDefect((defect) =>
        isStoreUnavailable(defect)
          ? Effect.logWarning("A removed clip's file stays for the orphan sweep: the object store is down").pipe(
            Effect.annotateLogs({ clipId: clip.id, blobKey: clip.blobKey, reason: defect.reason })
          )
          : Effect.die(defect)
      )
    )
  const dropBlobs = (removed: ReadonlyArray<HeldClipRow>) =>
    Effect.forEach(removed, dropBlob, { discard: true }).pipe(Effect.as(removed.map((clip) => clip.id)))

  /** Inside `repo.locked`: removes the oldest kept clips until those left plus `incoming` fit in `share`. */
  /**
   * Inside `repo.locked`: removes the oldest clips until the kept ones fit `share`, never a needed one; when the needed
   * clips alone are over the share they stay (a post still to go out keeps its video) and every other clip goes.
   */
  const evict = (workspaceId: WorkspaceId, share: number) =>
    Effect.gen(function*() {
      const needed = yield* needs.neededIds(workspaceId)
      const held = yield* repo.held(workspaceId)
      const neededBytes = held.reduce((sum, clip) => needed.has(clip.id) ? sum + clip.byteSize : sum, 0)
      const removable = held.filter((clip) => !needed.has(clip.id))
      const removed = neededBytes > share ? removable : oldestToRemove(removable, neededBytes, share)
      yield* repo.markRemoved(workspaceId, removed.map((clip) => clip.id))
      return removed
    })

  /**
   * Inside `repo.locked`: like `evict`, but never removes a clip in `spared` (still counted as held). Answers
   * undefined, removing nothing, when the spared clips leave no room for `incoming`.
   */
  const evictSparing = (
    workspaceId: WorkspaceId,
    share: number,
    incoming: number,
    except: string,
    spared: ReadonlySet<string>
  ) =>
    Effect.gen(function*() {
      const held = yield* repo.held(workspaceId, except)
      const sparedBytes = held.reduce((sum, clip) => spared.has(clip.id) ? sum + clip.byteSize : sum, 0)
      if (sparedBytes + incoming > share) return undefined
      const removable = held.filter((clip) => !spared.has(clip.id))
      const removed = oldestToRemove(removable, incoming + sparedBytes, share)
      yield* repo.markRemoved(workspaceId, removed.map((clip) => clip.id))
      return removed
    })

  const storageBlock = Effect.fn("StorageUsage.block")(function*(workspaceId: WorkspaceId) {
    return blockOf(yield* factsOf(workspaceId))
  })

  /** Whether `bytes` more fit in the media library's share (uploads never remove anything to make room). */
  const mediaFits = Effect.fn("StorageUsage.mediaFits")(function*(workspaceId: WorkspaceId, bytes: number) {
    const facts = yield* factsOf(workspaceId)
    return facts.mediaBytes + bytes <= mediaShareBytes(facts.storageMb, facts.mediaSharePercent)
  })

  /**
   * Stores a media row with `store` holding the workspace's storage lock, then counts again: when the media library is
   * now over its share the whole transaction is undone and the upload refused (413). Uploads check the room before
   * their bytes stream, but several may stream at once into the same room; this is where they queue up.
   */
  const storeMedia = <A, E, R>(workspaceId: WorkspaceId, bytes: number, store: Effect.Effect<A, E, R>) =>
    repo.locked(
      workspaceId,
      Effect.gen(function*() {
        const stored = yield* store
        const facts = yield* factsOf(workspaceId)
        const share = mediaShareBytes(facts.storageMb, facts.mediaSharePercent)
        if (facts.mediaBytes <= share) return stored
        const free = Math.max(0, share - (facts.mediaBytes - bytes))
        const message = `The file does not fit the media library's share of storage (${share} bytes, ${free} bytes ` +
          "free); delete media or move the storage split."
        return yield* new PayloadTooLarge({ message, details: [detailAt(["file"], message, "storageShare")] })
      })
    )

  /**
   * Keeps a finished clip of `bytes`: a clip larger than the whole clips share is not kept (and nothing is removed);
   * otherwise the oldest kept clips are removed until it fits, and it is marked kept. Running it again changes nothing.
   * `spared` (read inside the workspace's lock) names clips that must stay, such as those a post still to publish
   * relies on; media cannot tell, so the caller does. When they leave no room, the clip is not kept either.
   */
  const makeRoomForClip = Effect.fn("StorageUsage.makeRoomForClip")(
    function*(
      workspaceId: WorkspaceId,
      clipId: string,
      bytes: number,
      spared: Effect.Effect<ReadonlySet<string>> = needs.neededIds(workspaceId)
    ) {
      const removed = yield* repo.locked(
        workspaceId,
        Effect.gen(function*() {
          const share = yield* clipsShareOf(workspaceId)
          if (bytes > share) return undefined
          const removed = yield* evictSparing(workspaceId, share, bytes, clipId, yield* spared)
          if (removed === undefined) return undefined
          yield* repo.keep(workspaceId, clipId)
          return removed
        })
      )
      if (removed === undefined) return { kept: false, removed: [] } satisfies ClipRoom
      return { kept: true, removed: yield* dropBlobs(removed) } satisfies ClipRoom
    }
  )

  /**
   * Moves the split. Refused (409) when media no longer fit their new share; kept clips beyond the new clips share are
   * removed, oldest first. Answers the new block.
   */
  const setSplit = Effect.fn("StorageUsage.setSplit")(function*(workspaceId: WorkspaceId, mediaSharePercent: number) {
    const removed = yield* repo.locked(
      workspaceId,
      Effect.gen(function*() {
        const facts = yield* factsOf(workspaceId)
        const mediaMax = mediaShareBytes(facts.storageMb, mediaSharePercent)
        if (facts.mediaBytes > mediaMax) {
          const message = `The media library holds ${facts.mediaBytes} bytes; a ${mediaSharePercent}% share holds ` +
            `${mediaMax} bytes. Delete ${facts.mediaBytes - mediaMax} bytes of media or choose a larger share.`
          return yield* new Conflict({ message, details: [detailAt(["mediaSharePercent"], message)] })
        }
        const removed = yield* evict(workspaceId, clipsShareBytes(facts.storageMb, mediaSharePercent))
        yield* repo.setMediaShare(workspaceId, mediaSharePercent)
        return removed
      })
    )
    yield* dropBlobs(removed)
    return yield* storageBlock(workspaceId)
  })

  /** After the allowance changed: kept clips beyond the clips share are removed, oldest first. */
  const fitClips = Effect.fn("StorageUsage.fitClips")(function*(workspaceId: WorkspaceId) {
    const removed = yield* repo.locked(
      workspaceId,
      Effect.flatMap(clipsShareOf(workspaceId), (share) => evict(workspaceId, share))
    )
    return yield* dropBlobs(removed)
  })

  /** Removes one clip's bytes (the record stays, `stored` false); callers have checked it may go. */
  const removeClip = Effect.fn("StorageUsage.removeClip")(function*(workspaceId: WorkspaceId, clip: HeldClipRow) {
    yield* repo.locked(workspaceId, repo.markRemoved(workspaceId, [clip.id]))
    yield* dropBlobs([clip])
  })

  return { storageBlock, mediaFits, storeMedia, makeRoomForClip, setSplit, fitClips, removeClip }
})

export class StorageUsage extends Context.Tag("clipwright/media/StorageUsage")<
  StorageUsage,
  Effect.Effect.Success<typeof make>
>() {
  /** Needs `StorageRepo` and `BlobStorage`; hosted with the node's resources, since the export entity keeps clips. */
  static readonly layer = Layer.effect(StorageUsage, make)
}
