import { RateLimiter } from "@effect/experimental"
import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Either, Layer } from "effect"
import { PgRateLimiter } from "../../src/people/PgRateLimiterStore.js"
import { serviceTestLayer } from "../support/ServiceLayer.js"

const LimiterTest = PgRateLimiter.pipe(Layer.provideMerge(serviceTestLayer("rate_limiter_store")))

const take = (options: Omit<Parameters<RateLimiter.RateLimiter["consume"]>[0], "onExceeded">) =>
  Effect.flatMap(
    RateLimiter.RateLimiter,
    (limiter) => Effect.either(limiter.consume({ ...options, onExceeded: "fail" }))
  )

/** The store counts by the database's clock, which the TestClock does not move. */
const realSleep = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

describe("the PostgreSQL rate limiter store", () => {
  it.layer(LimiterTest, { timeout: 60_000 })((it) => {
    it.effect("fixed window: the limit passes, the next is refused until the window ends, then counting starts again", () =>
      Effect.gen(function*() {
        const options = { key: "fixed:a", limit: 3, window: Duration.seconds(3), algorithm: "fixed-window" } as const
        const first = yield* Effect.forEach([1, 2, 3], () => take(options))
        assert.deepStrictEqual(first.map(Either.isRight), [true, true, true])
        assert.deepStrictEqual(first.map((r) => Either.getOrThrow(r).remaining), [2, 1, 0])
        const refused = yield* take(options)
        assert.isTrue(Either.isLeft(refused))
        if (Either.isLeft(refused) && refused.left.reason === "Exceeded") {
          assert.isTrue(Duration.toMillis(refused.left.retryAfter) <= 3000)
        }
        // Another key counts on its own.
        assert.isTrue(Either.isRight(yield* take({ ...options, key: "fixed:b" })))
        yield* realSleep(3100)
        assert.isTrue(Either.isRight(yield* take(options)))
      }))

    it.effect("token bucket: a full bucket empties, refuses, and refills with time", () =>
      Effect.gen(function*() {
        const options = { key: "bucket:a", limit: 2, window: Duration.seconds(6), algorithm: "token-bucket" } as const
        assert.isTrue(Either.isRight(yield* take(options)))
        assert.isTrue(Either.isRight(yield* take(options)))
        assert.isTrue(Either.isLeft(yield* take(options)))
        // One token comes back every 3 s (long enough that a loaded machine's pauses between takes refill none).
        yield* realSleep(3200)
        assert.isTrue(Either.isRight(yield* take(options)))
        assert.isTrue(Either.isLeft(yield* take(options)))
      }))

    it.effect("counts the same for concurrent takers (as several nodes would be)", () =>
      Effect.gen(function*() {
        const options = {
          key: "fixed:race",
          limit: 10,
          window: Duration.seconds(30),
          algorithm: "fixed-window"
        } as const
        const results = yield* Effect.forEach(Array.from({ length: 25 }), () => take(options), { concurrency: 25 })
        assert.strictEqual(results.filter(Either.isRight).length, 10)
      }))
  })
})
