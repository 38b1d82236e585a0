import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, TestClock } from "effect"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { serviceTestLayer } from "../support/ServiceLayer.js"

const IdentityTest = Identity.layer.pipe(
  Layer.provideMerge(IdentityRepo.layer),
  Layer.provideMerge(serviceTestLayer("identity_service"))
)

describe("Identity service", () => {
  it.layer(IdentityTest, { timeout: 60_000 })((it) => {
    it.effect("a created key authenticates as its workspace until it is revoked", () =>
      Effect.gen(function*() {
        const identity = yield* Identity
        const { accountId } = yield* identity.createWorkspace("Acme", "ops@acme.example")
        const { apiKey, keyId } = yield* identity.createKey(accountId, ["streams:read"], "first")
        const caller = yield* identity.authenticate(apiKey)
        assert.isTrue(Option.isSome(caller))
        assert.strictEqual(Option.getOrThrow(caller).workspaceId, accountId)
        assert.deepStrictEqual(Option.getOrThrow(caller).scopes, ["streams:read"])
        // The answer waits until no node's key cache can still hold the key (the TestClock stands in for the wait).
        // The fiber reaches its sleep only after real database work, so the clock moves until it has ended.
        const revoking = yield* Effect.fork(identity.revokeKey(accountId, keyId))
        while (Option.isNone(yield* Fiber.poll(revoking))) {
          yield* TestClock.adjust("1 second")
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))
        }
        yield* Fiber.join(revoking)
        assert.isTrue(Option.isNone(yield* identity.authenticate(apiKey)))
      }))

    it.effect("refuses an unknown permission with a detail at its index, storing no key", () =>
      Effect.gen(function*() {
        const identity = yield* Identity
        const { accountId } = yield* identity.createWorkspace("Beta", null)
        const refused = yield* Effect.flip(identity.createKey(accountId, ["streams:read", "nope:write"], null))
        assert.strictEqual(refused._tag, "SchemaValidation")
        assert.deepStrictEqual(refused._tag === "SchemaValidation" ? refused.details.map((d) => d.path) : [], [
          "/scopes/1"
        ])
      }))
  })
})
