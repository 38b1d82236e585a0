import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { StorageRepo } from "../../src/media/StorageRepo.js"
import { StorageUsage } from "../../src/media/StorageUsage.js"
import { BlobStorage } from "../../src/storage/BlobStorage.js"
import { StoreUnavailable } from "../../src/storage/Errors.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { clip, clipState, newWorkspace } from "../support/ClipRows.js"
import { serviceTestLayer } from "../support/ServiceLayer.js"
import { tempRoot } from "./helpers.js"

const KB = 1024

/** A folder store whose deletes die as an object store's do while it is down; everything else works. */
const DeletesDown = Layer.effect(
  BlobStorage,
  Effect.map(BlobStorage, (store) => ({
    ...store,
    delete: () => Effect.die(new StoreUnavailable({ reason: "connect ECONNREFUSED 127.0.0.1:9" }))
  }))
).pipe(Layer.provide(LocalBlobStorage.layerAt(tempRoot("deletes-down"))))

const RoomTest = StorageUsage.layer.pipe(
  Layer.provideMerge(StorageRepo.layer),
  Layer.provideMerge(DeletesDown),
  Layer.provideMerge(serviceTestLayer("store_down_room"))
)

describe("making room with the object store down", () => {
  it.layer(RoomTest, { timeout: 60_000 })((it) => {
    it.effect("the oldest clip is recorded removed and the new one kept; its file is left for the orphan sweep", () =>
      Effect.gen(function*() {
        const usage = yield* StorageUsage
        const owner = yield* newWorkspace(1)
        const oldest = yield* clip(owner, 300 * KB, true)
        const fresh = yield* clip(owner, 300 * KB, false)
        // A render announcing its end keeps its clip here: a delete the store cannot take must not kill it.
        const room = yield* usage.makeRoomForClip(owner, fresh, 300 * KB)
        assert.deepStrictEqual(room, { kept: true, removed: [oldest] })
        assert.deepStrictEqual(yield* clipState(oldest), { stored: false, kept: false })
        assert.deepStrictEqual(yield* clipState(fresh), { stored: true, kept: true })
      }))
  })
})
