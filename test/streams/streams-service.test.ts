import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { newUlid } from "../../src/domain/Ulid.js"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { StreamEntityLive } from "../../src/streams/StreamEntityLive.js"
import { StreamListeners } from "../../src/streams/StreamListeners.js"
import { StreamRepo } from "../../src/streams/StreamRepo.js"
import { Streams } from "../../src/streams/Streams.js"
import { TemplateClearance } from "../../src/templates/TemplateClearance.js"
import { asRequest } from "../support/AsRequest.js"
import { newWorkspace, serviceTestLayer } from "../support/ServiceLayer.js"

const MARKET = "tpl_3a7c91e04b5d"

// Channels stand above streams; here no channel exists, so nothing listens (test/channels covers listeners).
const NoListeners = Layer.succeed(StreamListeners, {
  listening: () => Effect.succeed(new Map()),
  templateChanged: () => Effect.succeed(0)
})

const StreamsTest = Layer.mergeAll(Streams.layer, StreamEntityLive).pipe(
  Layer.provideMerge(TemplateClearance.layer),
  Layer.provideMerge(Identity.layer),
  Layer.provideMerge(Layer.mergeAll(StreamRepo.layer, IdentityRepo.layer, NoListeners)),
  Layer.provideMerge(serviceTestLayer("streams_service"))
)

// The live clock: stream changes go through the stream entity, and cluster calls hang under the TestClock.
layer(StreamsTest, { timeout: 60_000, excludeTestServices: true })("Streams service", (it) => {
  it.effect("another workspace's stream is NotFound for every operation, exactly like a missing one", () =>
    Effect.gen(function*() {
      const streams = yield* Streams
      const owner = yield* newWorkspace("Owner")
      const other = yield* newWorkspace("Other")
      const stream = yield* asRequest(streams.create(owner, { name: "Moves", templateId: MARKET }))

      const update = yield* Effect.flip(asRequest(streams.update(other, stream.id, { name: "Stolen" })))
      const remove = yield* Effect.flip(asRequest(streams.remove(other, stream.id)))
      const suggest = yield* Effect.flip(streams.suggest(other, stream.id, {}))
      const missing = yield* Effect.flip(asRequest(streams.update(other, "st_000000000000", { name: "x" })))
      assert.deepStrictEqual([update._tag, remove._tag, suggest._tag, missing._tag], [
        "NotFound",
        "NotFound",
        "NotFound",
        "NotFound"
      ])
      assert.deepStrictEqual((yield* streams.list(other)).streams, [])
      const mine = (yield* streams.list(owner)).streams
      assert.deepStrictEqual(mine.map((s) => s.name), ["Moves"])
    }))

  it.effect("a retried create (same request id) answers the same stream once; another request for that id is 409", () =>
    Effect.gen(function*() {
      const streams = yield* Streams
      const owner = yield* newWorkspace("Retry")
      const requestId = newUlid()
      const first = yield* asRequest(streams.create(owner, { name: "Once", templateId: MARKET }), requestId)
      const again = yield* asRequest(streams.create(owner, { name: "Once", templateId: MARKET }), requestId)
      assert.strictEqual(again.id, first.id)
      assert.strictEqual((yield* streams.list(owner)).streams.length, 1)
      const other = yield* newWorkspace("Elsewhere")
      const taken = yield* Effect.flip(
        asRequest(streams.create(other, { id: first.id, name: "Mine", templateId: MARKET }))
      )
      assert.strictEqual(taken._tag, "Conflict")
    }))

  it.effect("a deleted stream leaves the list under its name plus ' (removed)' and can no longer change", () =>
    Effect.gen(function*() {
      const streams = yield* Streams
      const repo = yield* StreamRepo
      const owner = yield* newWorkspace("Deletes")
      const stream = yield* asRequest(streams.create(owner, { name: "Short-lived", templateId: MARKET }))
      assert.deepStrictEqual(yield* asRequest(streams.remove(owner, stream.id)), { ok: true, stopped: 0 })
      assert.deepStrictEqual((yield* streams.list(owner)).streams, [])
      const kept = yield* repo.findInAnyWorkspace(stream.id)
      assert.strictEqual(kept._tag === "Some" ? kept.value.name : "", "Short-lived (removed)")
      const update = yield* Effect.flip(asRequest(streams.update(owner, stream.id, { enabled: false })))
      assert.strictEqual(update._tag, "NotFound")
    }))

  it.effect("a field map that does not fit the template is refused with a detail at the field, storing nothing", () =>
    Effect.gen(function*() {
      const streams = yield* Streams
      const owner = yield* newWorkspace("Maps")
      const refused = yield* Effect.flip(asRequest(streams.create(owner, {
        name: "Bad map",
        templateId: MARKET,
        fieldMap: { "/nonsense": { from: "/x" } }
      })))
      assert.strictEqual(refused._tag, "SchemaValidation")
      assert.isTrue(refused._tag === "SchemaValidation" && refused.details.length > 0)
      assert.deepStrictEqual((yield* streams.list(owner)).streams, [])
    }))

  it.effect("field-map keys into /locales/<locale>/... are the content path below them, for a supported locale", () =>
    Effect.gen(function*() {
      const streams = yield* Streams
      const owner = yield* newWorkspace("Locale maps")
      const made = yield* asRequest(streams.create(owner, {
        name: "French copy",
        templateId: MARKET,
        fieldMap: { "/locales/fr/clipData/headline": { from: "/titre" } }
      }))
      assert.deepStrictEqual(Object.keys(made.fieldMap), ["/locales/fr/clipData/headline"])
      const refused = yield* Effect.flip(asRequest(streams.create(owner, {
        name: "Unknown locale",
        templateId: MARKET,
        fieldMap: { "/locales/xx/clipData/headline": { from: "/titre" } }
      })))
      assert.strictEqual(refused._tag, "SchemaValidation")
    }))
})
