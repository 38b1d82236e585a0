import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { BrandEntityLive } from "../../src/brands/BrandEntityLive.js"
import { BrandRepo } from "../../src/brands/BrandRepo.js"
import { Brands } from "../../src/brands/Brands.js"
import { ChannelBrandWearers } from "../../src/channels/ChannelBrandWearers.js"
import { ChannelEntityLive } from "../../src/channels/ChannelEntityLive.js"
import { ChannelListeners } from "../../src/channels/ChannelListeners.js"
import { ChannelRepo } from "../../src/channels/ChannelRepo.js"
import { Channels } from "../../src/channels/Channels.js"
import { SubscriptionRepo } from "../../src/channels/SubscriptionRepo.js"
import { Subscriptions } from "../../src/channels/Subscriptions.js"
import { newUlid } from "../../src/domain/Ulid.js"
import { EntitlementRepo } from "../../src/feeds/EntitlementRepo.js"
import { Entitlements } from "../../src/feeds/Entitlements.js"
import { FeedSwitches } from "../../src/feeds/FeedSwitches.js"
import { FeedSwitchRepo } from "../../src/feeds/FeedSwitchRepo.js"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { StreamEntityLive } from "../../src/streams/StreamEntityLive.js"
import { StreamRepo } from "../../src/streams/StreamRepo.js"
import { Streams } from "../../src/streams/Streams.js"
import { TemplateClearance } from "../../src/templates/TemplateClearance.js"
import { asRequest } from "../support/AsRequest.js"
import { ChannelJobsDeps, newWorkspace, serviceTestLayer } from "../support/ServiceLayer.js"

const MARKET = "tpl_3a7c91e04b5d"
const INDEX_CLOSE = { kind: "BROADCAST", sourceSlug: "markets", formatSlug: "index-close" } as const

const Entities = Layer.mergeAll(ChannelEntityLive, BrandEntityLive, StreamEntityLive)

const SubscriptionsTest = Layer.mergeAll(Subscriptions.layer, Entities).pipe(
  Layer.provideMerge(Layer.mergeAll(Channels.layer, FeedSwitches.layer, Streams.layer)),
  Layer.provideMerge(Layer.mergeAll(Brands.layer, Entitlements.layer, ChannelListeners)),
  Layer.provideMerge(TemplateClearance.layer),
  Layer.provideMerge(Identity.layer),
  Layer.provideMerge(
    Layer.mergeAll(
      ChannelRepo.layer,
      SubscriptionRepo.layer,
      BrandRepo.layer,
      IdentityRepo.layer,
      ChannelBrandWearers,
      EntitlementRepo.layer,
      FeedSwitchRepo.layer,
      StreamRepo.layer,
      ChannelJobsDeps
    )
  ),
  Layer.provideMerge(serviceTestLayer("subscriptions_service"))
)

const withChannel = (name: string) =>
  Effect.gen(function*() {
    const brands = yield* Brands
    const channels = yield* Channels
    const workspaceId = yield* newWorkspace(name)
    yield* asRequest(brands.create(workspaceId, { name: `${name} brand` }))
    const channel = yield* asRequest(channels.create(workspaceId, { name }))
    return { workspaceId, channel }
  })

// The live clock: subscription changes go through the channel entity, and cluster calls hang under the TestClock.
layer(SubscriptionsTest, { timeout: 60_000, excludeTestServices: true })("Subscriptions service", (it) => {
  it.effect("a retried subscribe (same request id) adds the subscription once; another request is a conflict", () =>
    Effect.gen(function*() {
      const subscriptions = yield* Subscriptions
      const { channel, workspaceId } = yield* withChannel("Retry")
      const requestId = newUlid()
      const first = yield* asRequest(subscriptions.add(workspaceId, channel.id, INDEX_CLOSE), requestId)
      const again = yield* asRequest(subscriptions.add(workspaceId, channel.id, INDEX_CLOSE), requestId)
      assert.strictEqual(first.subscriptions.length, 1)
      assert.deepStrictEqual(again.subscriptions, first.subscriptions)
      const conflict = yield* Effect.flip(asRequest(subscriptions.add(workspaceId, channel.id, INDEX_CLOSE)))
      assert.strictEqual(conflict._tag, "Conflict")
    }))

  it.effect("two concurrent subscribes to one input: one lands, the other is a conflict", () =>
    Effect.gen(function*() {
      const subscriptions = yield* Subscriptions
      const channels = yield* Channels
      const { channel, workspaceId } = yield* withChannel("Race")
      const outcomes = yield* Effect.all(
        [1, 2].map(() => Effect.either(asRequest(subscriptions.add(workspaceId, channel.id, INDEX_CLOSE)))),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(outcomes.map((o) => o._tag).sort(), ["Left", "Right"])
      assert.strictEqual((yield* channels.get(workspaceId, channel.id)).subscriptions.length, 1)
    }))

  it.effect("another workspace's channel and stream are NotFound / UnknownStream, exactly like missing ones", () =>
    Effect.gen(function*() {
      const subscriptions = yield* Subscriptions
      const streams = yield* Streams
      const owner = yield* withChannel("Owner")
      const other = yield* withChannel("Other")
      const stream = yield* asRequest(streams.create(owner.workspaceId, { name: "Owned", templateId: MARKET }))
      const { subscriptions: [sub] } = yield* asRequest(
        subscriptions.add(owner.workspaceId, owner.channel.id, { kind: "STREAM", streamId: stream.id })
      )
      const tags = yield* Effect.all([
        Effect.flip(asRequest(subscriptions.add(other.workspaceId, owner.channel.id, INDEX_CLOSE))),
        Effect.flip(asRequest(subscriptions.change(other.workspaceId, owner.channel.id, sub!.id, { enabled: false }))),
        Effect.flip(asRequest(subscriptions.remove(other.workspaceId, owner.channel.id, sub!.id))),
        Effect.flip(asRequest(subscriptions.remove(other.workspaceId, other.channel.id, sub!.id))),
        Effect.flip(asRequest(
          subscriptions.add(other.workspaceId, other.channel.id, { kind: "STREAM", streamId: stream.id })
        ))
      ]).pipe(Effect.map((errors) => errors.map((e) => e._tag)))
      assert.deepStrictEqual(tags, ["NotFound", "NotFound", "NotFound", "NotFound", "UnknownStream"])
    }))

  it.effect("pins: a bad version is SchemaValidation, a missing build UnknownTemplate; a change keeps the rest", () =>
    Effect.gen(function*() {
      const subscriptions = yield* Subscriptions
      const { channel, workspaceId } = yield* withChannel("Pins")
      const bad = yield* Effect.flip(
        asRequest(subscriptions.add(workspaceId, channel.id, { ...INDEX_CLOSE, templateVersion: "1.0" }))
      )
      const missing = yield* Effect.flip(
        asRequest(subscriptions.add(workspaceId, channel.id, { ...INDEX_CLOSE, templateVariant: "wide" }))
      )
      assert.deepStrictEqual([bad._tag, missing._tag], ["SchemaValidation", "UnknownTemplate"])
      const added = yield* asRequest(subscriptions.add(workspaceId, channel.id, INDEX_CLOSE))
      const id = added.subscriptions[0]!.id
      yield* asRequest(subscriptions.change(workspaceId, channel.id, id, { templateVersion: "1.0.0" }))
      const changed = yield* asRequest(subscriptions.change(workspaceId, channel.id, id, { enabled: false }))
      assert.deepStrictEqual(
        [changed.subscriptions[0]?.templateVersion, changed.subscriptions[0]?.enabled],
        ["1.0.0", false]
      )
    }))
})
