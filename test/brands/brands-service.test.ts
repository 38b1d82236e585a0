import { SqlClient } from "@effect/sql"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { BrandEntityLive } from "../../src/brands/BrandEntityLive.js"
import { BrandLooks } from "../../src/brands/BrandLooks.js"
import { BrandRepo } from "../../src/brands/BrandRepo.js"
import { Brands } from "../../src/brands/Brands.js"
import { BrandSlotHolders } from "../../src/brands/BrandSlotHolders.js"
import { BrandSlots } from "../../src/brands/BrandSlots.js"
import { ChannelBrandWearers } from "../../src/channels/ChannelBrandWearers.js"
import { WorkspaceId } from "../../src/domain/Principal.js"
import { newUlid } from "../../src/domain/Ulid.js"
import { MediaFiles } from "../../src/media/MediaFiles.js"
import { MediaLibrary } from "../../src/media/MediaLibrary.js"
import { MediaRepo } from "../../src/media/MediaRepo.js"
import { MediaUploads } from "../../src/media/MediaUploads.js"
import { StorageRepo } from "../../src/media/StorageRepo.js"
import { StorageUsage } from "../../src/media/StorageUsage.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { asRequest } from "../support/AsRequest.js"
import { serviceTestLayer } from "../support/ServiceLayer.js"

const BrandsTest = Layer.mergeAll(Brands.layer, BrandSlots.layer, BrandLooks.layer, BrandEntityLive).pipe(
  Layer.provideMerge(MediaLibrary.layer),
  Layer.provideMerge(Layer.mergeAll(MediaUploads.layer, MediaFiles.layer)),
  Layer.provideMerge(StorageUsage.layer),
  Layer.provideMerge(Layer.mergeAll(MediaRepo.layer, StorageRepo.layer)),
  Layer.provideMerge(BrandSlotHolders.mediaHolders),
  Layer.provideMerge(BrandSlotHolders.layer),
  Layer.provideMerge(BrandRepo.layer),
  Layer.provideMerge(ChannelBrandWearers),
  Layer.provideMerge(LocalBlobStorage.layer),
  Layer.provideMerge(serviceTestLayer("brands_service"))
)

/** A workspace row; the id is the one just stored, so it is a workspace id. */
const newWorkspace = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const id = WorkspaceId.make(newUlid())
  yield* sql`INSERT INTO workspaces (id, name) VALUES (${id}, ${"Test " + id})`
  return id
}).pipe(Effect.orDie)

const logoFile = (workspaceId: WorkspaceId, name: string) =>
  Effect.gen(function*() {
    const id = newUlid()
    const row = yield* (yield* MediaFiles).insert(workspaceId, {
      id,
      name,
      mimeType: "image/png",
      kind: "Image",
      byteSize: 2048,
      sha256: "0".repeat(64),
      blobKey: `media/${workspaceId}/library/${id}`,
      width: 64,
      height: 64,
      uploadedBy: "apikey:test"
    })
    return Option.getOrThrowWith(row, () => new Error(`${name} is taken`))
  })

const output = { ratio: "9x16", locale: "en", width: 1080, height: 1920 }

describe("Brands service", () => {
  // Brand changes go through the brand entity, which the TestClock would hold still: these run on the live clock.
  layer(BrandsTest, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("another workspace's brand is NotFound like a missing one, and the owner's brand is untouched", () =>
      Effect.gen(function*() {
        const brands = yield* Brands
        const looks = yield* BrandLooks
        const [owner, stranger] = [yield* newWorkspace, yield* newWorkspace]
        const { brand } = yield* asRequest(brands.create(owner, { name: "Acme" }))
        const missingId = newUlid()
        const asMissing = (id: string) => ({ _tag: "NotFound", message: `No brand ${id}.` })
        for (const id of [brand.id, missingId]) {
          const attempts: ReadonlyArray<Effect.Effect<unknown, { _tag: string; message: string }>> = [
            brands.get(stranger, id),
            asRequest(brands.update(stranger, id, { name: "Mine" })),
            asRequest(brands.remove(stranger, id, undefined)),
            looks.find(stranger, id)
          ]
          for (const attempt of attempts) {
            const refused = yield* Effect.flip(attempt)
            assert.deepStrictEqual({ _tag: refused._tag, message: refused.message }, asMissing(id))
          }
        }
        assert.deepStrictEqual((yield* brands.get(owner, brand.id)).brand, brand)
        assert.deepStrictEqual((yield* brands.list(stranger)).brands, [])
        assert.deepStrictEqual(yield* looks.find(owner, brand.id), { id: brand.id, name: "Acme" })
      }))

    it.effect("a create retried with the same request id answers the first brand and stores one", () =>
      Effect.gen(function*() {
        const brands = yield* Brands
        const owner = yield* newWorkspace
        const requestId = newUlid()
        const first = yield* asRequest(brands.create(owner, { name: "Once" }), requestId)
        const retried = yield* asRequest(brands.create(owner, { name: "Once" }), requestId)
        assert.deepStrictEqual(retried, first)
        assert.deepStrictEqual((yield* brands.list(owner)).brands.map((b) => b.name), ["Once"])
        const clash = yield* Effect.flip(asRequest(brands.create(owner, { name: "ONCE" })))
        assert.strictEqual(clash._tag, "Conflict")
      }))

    it.effect("a deleted brand leaves get, list and its name, yet a render submitted before still draws it", () =>
      Effect.gen(function*() {
        const brands = yield* Brands
        const looks = yield* BrandLooks
        const [owner, stranger] = [yield* newWorkspace, yield* newWorkspace]
        const style = { design: { first: "#123456" } }
        const { brand } = yield* asRequest(brands.create(owner, { name: "Gone", style }))
        assert.deepStrictEqual(yield* asRequest(brands.remove(owner, brand.id, undefined)), { deleted: true, moved: 0 })
        assert.strictEqual((yield* Effect.flip(brands.get(owner, brand.id)))._tag, "NotFound")
        assert.strictEqual((yield* Effect.flip(looks.find(owner, brand.id)))._tag, "NotFound")
        assert.deepStrictEqual((yield* brands.list(owner)).brands, [])
        const drawn = yield* Effect.scoped(looks.extrasFor(owner, brand.id, {}, output))
        assert.strictEqual("brand" in drawn ? drawn.brand.look?.background?.[0] : undefined, "#123456")
        const elsewhere = yield* Effect.scoped(looks.extrasFor(stranger, brand.id, {}, output))
        assert.isFalse("brand" in elsewhere)
        const again = yield* asRequest(brands.create(owner, { name: "Gone" }))
        assert.notStrictEqual(again.brand.id, brand.id)
      }))

    it.effect("a slot links only a file of the workspace's own library, and deleting the file empties the slot", () =>
      Effect.gen(function*() {
        const brands = yield* Brands
        const slots = yield* BrandSlots
        const library = yield* MediaLibrary
        const [owner, stranger] = [yield* newWorkspace, yield* newWorkspace]
        const { brand } = yield* asRequest(brands.create(owner, { name: "Slots" }))
        const theirs = yield* logoFile(stranger, "their-logo.png")
        const linkTheirs = slots.link(owner, brand.id, "logo", undefined, `media://${theirs.id}`)
        const refused = yield* Effect.flip(asRequest(linkTheirs))
        assert.deepStrictEqual([refused._tag, refused.message], ["NotFound", `No media file ${theirs.id}.`])
        const ours = yield* logoFile(owner, "logo.png")
        const linked = yield* asRequest(slots.link(owner, brand.id, "logo", undefined, "media://logo.png"))
        assert.strictEqual(linked.brand.style.logo?.assetId, ours.id)
        const { uses } = yield* library.uses(owner, ours.id)
        assert.deepStrictEqual(uses, [{ kind: "brandSlot", brandId: brand.id, brandName: "Slots", slot: "logo" }])
        const fromStranger = yield* Effect.flip(asRequest(slots.clear(stranger, brand.id, "logo", undefined)))
        assert.strictEqual(fromStranger._tag, "NotFound")
        yield* asRequest(library.remove(owner, ours.id))
        assert.isNull((yield* brands.get(owner, brand.id)).brand.style.logo)
      }))
  })
})
