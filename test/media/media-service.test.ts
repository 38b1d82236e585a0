import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { WorkspaceId } from "../../src/domain/Principal.js"
import { newUlid } from "../../src/domain/Ulid.js"
import { MediaFiles } from "../../src/media/MediaFiles.js"
import { type HeldFile, MediaHolders } from "../../src/media/MediaHolders.js"
import { MediaLibrary } from "../../src/media/MediaLibrary.js"
import type { NewMediaFile } from "../../src/media/MediaRecord.js"
import { MediaRepo } from "../../src/media/MediaRepo.js"
import { MediaUploads } from "../../src/media/MediaUploads.js"
import { StorageRepo } from "../../src/media/StorageRepo.js"
import { StorageUsage } from "../../src/media/StorageUsage.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { clip, clipState, newWorkspace } from "../support/ClipRows.js"
import { serviceTestLayer } from "../support/ServiceLayer.js"

const KB = 1024

/** What the library asked its holders (brand slots in the server) to do. */
const repointed: Array<{ workspaceId: string; id: string; next: HeldFile | null }> = []
const RecordingHolders = Layer.succeed(MediaHolders, {
  uses: () => Effect.succeed([]),
  repoint: (workspaceId, id, next) => Effect.sync(() => void repointed.push({ workspaceId, id, next }))
})

const MediaTest = MediaLibrary.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(MediaUploads.layer, MediaFiles.layer, RecordingHolders)),
  Layer.provideMerge(StorageUsage.layer),
  Layer.provideMerge(Layer.mergeAll(MediaRepo.layer, StorageRepo.layer)),
  Layer.provideMerge(LocalBlobStorage.layer),
  Layer.provideMerge(serviceTestLayer("media_service"))
)

const aFile = (workspaceId: WorkspaceId, name: string, byteSize = 10 * KB): NewMediaFile => {
  const id = newUlid()
  return {
    id,
    name,
    mimeType: "image/png",
    kind: "Image",
    byteSize,
    sha256: "0".repeat(64),
    blobKey: `media/${workspaceId}/library/${id}`,
    width: 16,
    height: 16,
    uploadedBy: "apikey:test"
  }
}

const stored = (workspaceId: WorkspaceId, name: string, byteSize?: number) =>
  Effect.gen(function*() {
    const row = yield* (yield* MediaFiles).insert(workspaceId, aFile(workspaceId, name, byteSize))
    return Option.getOrThrowWith(row, () => new Error(`${name} is taken`))
  })

describe("Media library service", () => {
  it.layer(MediaTest, { timeout: 60_000 })((it) => {
    it.effect("another workspace's file is NotFound for rename, delete and uses, and stays as it was", () =>
      Effect.gen(function*() {
        const library = yield* MediaLibrary
        const [owner, stranger] = [yield* newWorkspace(), yield* newWorkspace()]
        const file = yield* stored(owner, "logo.png")
        const missing = { _tag: "NotFound", message: `No media file ${file.id}.` }
        const attempts: ReadonlyArray<Effect.Effect<unknown, { _tag: string; message: string }>> = [
          library.rename(stranger, file.id, "mine.png"),
          library.remove(stranger, file.id),
          library.uses(stranger, file.id)
        ]
        for (const attempt of attempts) {
          const refused = yield* Effect.flip(attempt)
          assert.deepStrictEqual({ _tag: refused._tag, message: refused.message }, missing)
        }
        assert.deepStrictEqual(repointed.filter((r) => r.id === file.id), [])
        const { files } = yield* library.list(owner)
        assert.deepStrictEqual(files.map((f) => f.name), ["logo.png"])
        assert.deepStrictEqual((yield* library.list(stranger)).files, [])
      }))

    it.effect("renaming and deleting a file hand the new name, then the release, to what holds it", () =>
      Effect.gen(function*() {
        const library = yield* MediaLibrary
        const owner = yield* newWorkspace()
        const file = yield* stored(owner, "intro.png")
        yield* stored(owner, "taken.png")
        const clash = yield* Effect.flip(library.rename(owner, file.id, "TAKEN.png"))
        assert.strictEqual(clash._tag, "Conflict")
        const { file: renamed } = yield* library.rename(owner, file.id, "outro.png")
        assert.strictEqual(renamed.name, "outro.png")
        assert.deepStrictEqual(yield* library.remove(owner, file.id), { deleted: true, id: file.id })
        const handed = repointed.filter((r) => r.id === file.id)
        assert.deepStrictEqual(handed.map((r) => [r.workspaceId, r.next?.name ?? null]), [
          [owner, "outro.png"],
          [owner, null]
        ])
        const again = yield* Effect.flip(library.remove(owner, file.id))
        assert.strictEqual(again._tag, "NotFound")
      }))

    it.effect("a signed preview opens a file of any workspace, but not with a wrong signature or once deleted", () =>
      Effect.gen(function*() {
        const library = yield* MediaLibrary
        const owner = yield* newWorkspace()
        const file = yield* stored(owner, "preview.png")
        const url = new URL((yield* library.view(file)).url)
        const [exp, sig] = [url.searchParams.get("exp") ?? "", url.searchParams.get("sig") ?? ""]
        const opened = yield* library.previewFile(file.id, exp, sig)
        assert.deepStrictEqual([opened.id, opened.workspaceId, opened.blobKey], [file.id, owner, file.blobKey])
        const forged = yield* Effect.flip(library.previewFile(file.id, exp, sig.slice(1) + "A"))
        assert.strictEqual(forged._tag, "Forbidden")
        yield* library.remove(owner, file.id)
        const gone = yield* Effect.flip(library.previewFile(file.id, exp, sig))
        assert.strictEqual(gone._tag, "NotFound")
      }))

    it.effect("the storage block counts only the workspace's own files; a split media would not fit is refused", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsage
        const [owner, stranger] = [yield* newWorkspace(1), yield* newWorkspace(1)]
        yield* stored(owner, "big.png", 400 * KB)
        yield* stored(stranger, "other.png", 300 * KB)
        const block = yield* usage.storageBlock(owner)
        assert.deepStrictEqual(block.usedBy, { media: 400 * KB, renders: 0 })
        const refused = yield* Effect.flip(usage.setSplit(owner, 30))
        assert.strictEqual(refused._tag, "Conflict")
        assert.strictEqual((yield* usage.storageBlock(owner)).mediaPercent, 50)
        assert.strictEqual((yield* usage.setSplit(owner, 60)).mediaPercent, 60)
        assert.strictEqual((yield* usage.storageBlock(stranger)).mediaPercent, 50)
      }))

    it.effect("making room for a clip removes the workspace's own oldest kept clips, never another's", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsage
        const [owner, stranger] = [yield* newWorkspace(1), yield* newWorkspace(1)]
        const oldest = yield* clip(owner, 300 * KB, true)
        const theirs = yield* clip(stranger, 300 * KB, true)
        const theirsUnkept = yield* clip(stranger, 10 * KB, false)
        const fresh = yield* clip(owner, 300 * KB, false)
        const room = yield* usage.makeRoomForClip(owner, fresh, 300 * KB)
        assert.deepStrictEqual(room, { kept: true, removed: [oldest] })
        assert.deepStrictEqual(yield* clipState(oldest), { stored: false, kept: false })
        assert.deepStrictEqual(yield* clipState(fresh), { stored: true, kept: true })
        assert.deepStrictEqual(yield* clipState(theirs), { stored: true, kept: true })
        // A clip id of another workspace is not kept on this workspace's account.
        yield* usage.makeRoomForClip(owner, theirsUnkept, 10 * KB)
        assert.deepStrictEqual(yield* clipState(theirsUnkept), { stored: true, kept: false })
      }))
  })
})
