import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { BrandEntityLive } from "../../src/brands/BrandEntityLive.js"
import { BrandRepo } from "../../src/brands/BrandRepo.js"
import { Brands } from "../../src/brands/Brands.js"
import { ChannelBrandWearers } from "../../src/channels/ChannelBrandWearers.js"
import { ChannelEntityLive } from "../../src/channels/ChannelEntityLive.js"
import { ChannelRepo } from "../../src/channels/ChannelRepo.js"
import { Channels } from "../../src/channels/Channels.js"
import { SubscriptionRepo } from "../../src/channels/SubscriptionRepo.js"
import type { WorkspaceId } from "../../src/domain/Principal.js"
import { newUlid } from "../../src/domain/Ulid.js"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { asRequest } from "../support/AsRequest.js"
import { ChannelJobsDeps, newWorkspace, serviceTestLayer } from "../support/ServiceLayer.js"

const ChannelsTest = Layer.mergeAll(Channels.layer, ChannelEntityLive, BrandEntityLive).pipe(
  Layer.provideMerge(Layer.mergeAll(Brands.layer, Identity.layer)),
  Layer.provideMerge(
    Layer.mergeAll(
      ChannelRepo.layer,
      SubscriptionRepo.layer,
      BrandRepo.layer,
      IdentityRepo.layer,
      ChannelBrandWearers,
      ChannelJobsDeps
    )
  ),
  Layer.provideMerge(serviceTestLayer("channels_service"))
)

const withBrand = (name: string) =>
  Effect.gen(function*() {
    const brands = yield* Brands
    const workspaceId = yield* newWorkspace(name)
    const { brand } = yield* asRequest(brands.create(workspaceId, { name: `${name} brand` }))
    return { workspaceId, brand }
  })

const names = (workspaceId: WorkspaceId) =>
  Effect.flatMap(Channels, (channels) => channels.list(workspaceId)).pipe(
    Effect.map(({ channels }) => channels.map((c) => c.name))
  )

// The live clock: channel changes go through the channel entity, and cluster calls hang under the TestClock.
layer(ChannelsTest, { timeout: 60_000, excludeTestServices: true })("Channels service", (it) => {
  it.effect("a retried create (same request id) answers the same channel once", () =>
    Effect.gen(function*() {
      const channels = yield* Channels
      const { brand, workspaceId } = yield* withBrand("Retry")
      const requestId = newUlid()
      const first = yield* asRequest(channels.create(workspaceId, { name: "Once" }), requestId)
      const again = yield* asRequest(channels.create(workspaceId, { name: "Once" }), requestId)
      assert.strictEqual(again.id, first.id)
      assert.deepStrictEqual(first.brand, { id: brand.id, name: brand.name, enabled: true })
      assert.deepStrictEqual(yield* names(workspaceId), ["Once"])
      const taken = yield* Effect.flip(asRequest(channels.create(workspaceId, { name: "Once" })))
      assert.strictEqual(taken._tag, "Conflict")
    }))

  it.effect("another workspace's channel is NotFound for every change, exactly like a missing one", () =>
    Effect.gen(function*() {
      const channels = yield* Channels
      const owner = yield* withBrand("Owner")
      const other = yield* withBrand("Other")
      const channel = yield* asRequest(channels.create(owner.workspaceId, { name: "Mine" }))
      const update = yield* Effect.flip(asRequest(channels.update(other.workspaceId, channel.id, { enabled: false })))
      const remove = yield* Effect.flip(asRequest(channels.remove(other.workspaceId, channel.id)))
      const missing = yield* Effect.flip(asRequest(channels.remove(other.workspaceId, newUlid())))
      assert.deepStrictEqual([update._tag, remove._tag, missing._tag], ["NotFound", "NotFound", "NotFound"])
      assert.deepStrictEqual(yield* names(other.workspaceId), [])
      const mine = (yield* channels.list(owner.workspaceId)).channels
      assert.deepStrictEqual(mine.map((c) => [c.name, c.enabled]), [["Mine", true]])
    }))

  it.effect("concurrent changes to one channel compose: each is laid over what the other stored", () =>
    Effect.gen(function*() {
      const channels = yield* Channels
      const { workspaceId } = yield* withBrand("Compose")
      const channel = yield* asRequest(channels.create(workspaceId, { surface: "tiktok" }))
      yield* Effect.all([
        asRequest(channels.update(workspaceId, channel.id, { approval: "PER_POST" })),
        asRequest(channels.update(workspaceId, channel.id, { posting: { allowDuetStitch: false } })),
        asRequest(channels.update(workspaceId, channel.id, { locale: "de" }))
      ], { concurrency: "unbounded" })
      const [stored] = (yield* channels.list(workspaceId)).channels
      assert.strictEqual(stored?.approval, "PER_POST")
      assert.strictEqual(stored?.locale, "de")
      assert.deepStrictEqual(stored?.posting, { allowComments: true, brandedContent: false, allowDuetStitch: false })
    }))

  it.effect("a brand deletion moves the channels wearing it, and refuses without moveTo", () =>
    Effect.gen(function*() {
      const channels = yield* Channels
      const brands = yield* Brands
      const { brand, workspaceId } = yield* withBrand("Moves")
      const { brand: next } = yield* asRequest(brands.create(workspaceId, { name: "Next" }))
      yield* asRequest(channels.create(workspaceId, { name: "One" }))
      const refused = yield* Effect.flip(asRequest(brands.remove(workspaceId, brand.id, undefined)))
      assert.strictEqual(refused._tag, "Conflict")
      const removed = yield* asRequest(brands.remove(workspaceId, brand.id, next.id))
      assert.deepStrictEqual(removed, { deleted: true, moved: 1 })
      const [moved] = (yield* channels.list(workspaceId)).channels
      assert.deepStrictEqual(moved?.brand, { id: next.id, name: "Next", enabled: true })
      const gone = yield* Effect.flip(asRequest(channels.update(workspaceId, moved!.id, { brandId: brand.id })))
      assert.strictEqual(gone._tag, "NotFound")
      assert.deepStrictEqual(gone._tag === "NotFound" ? gone.details.map((d) => d.path) : [], ["/brandId"])
    }))
})
