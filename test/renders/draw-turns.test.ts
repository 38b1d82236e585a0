import { assert, describe, layer } from "@effect/vitest"
import { Deferred, Effect, Either, Exit, Fiber, Layer, Schedule, Scope } from "effect"
import type { WorkspaceId } from "../../src/domain/Principal.js"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { RenderCapacity } from "../../src/renders/allowance/RenderCapacity.js"
import { DrawTurns } from "../../src/renders/exports/DrawTurns.js"
import { newWorkspace, serviceTestLayer } from "../support/ServiceLayer.js"

// Two render slots (the test settings). The draws are held open by the test, so who holds a slot is what is checked.
const DrawTurnsTest = DrawTurns.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(RenderCapacity.layer, Identity.layer.pipe(Layer.provide(IdentityRepo.layer)))),
  Layer.provideMerge(serviceTestLayer("draw_turns"))
)

describe("turns at the render slots for keyframes", () => {
  layer(DrawTurnsTest, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a workspace with its share of requests in progress is refused with 503; another is taken", () =>
      Effect.gen(function*() {
        const turns = yield* DrawTurns
        const a = yield* newWorkspace("A")
        const b = yield* newWorkspace("B")
        const held = yield* Scope.make()
        yield* Scope.extend(Effect.all([turns.admit(a), turns.admit(a)]), held)
        const third = yield* Effect.either(Effect.scoped(turns.admit(a)))
        assert.isTrue(Either.isLeft(third))
        if (Either.isLeft(third)) {
          assert.strictEqual(third.left._tag, "UpstreamUnavailable")
          assert.isAbove(third.left.retryAfterSeconds ?? 0, 0)
        }
        assert.isTrue(Either.isRight(yield* Effect.either(Effect.scoped(turns.admit(b)))))
        yield* Scope.close(held, Exit.void)
        assert.isTrue(Either.isRight(yield* Effect.either(Effect.scoped(turns.admit(a)))))
      }))

    it.effect("B's draw takes the first slot that frees while A has many waiting; A keeps half the slots meanwhile", () =>
      Effect.gen(function*() {
        const turns = yield* DrawTurns
        const a = yield* newWorkspace("A")
        const b = yield* newWorkspace("B")
        const began: Array<string> = []
        const gates = new Map<string, Deferred.Deferred<void>>()
        const draw = (workspaceId: WorkspaceId, name: string) =>
          Effect.gen(function*() {
            const gate = yield* Deferred.make<void>()
            gates.set(name, gate)
            return yield* Effect.fork(turns.turn(
              workspaceId,
              Effect.sync(() => began.push(name)).pipe(
                Effect.zipRight(Deferred.await(gate))
              )
            ))
          })
        const waitingIs = (n: number) =>
          turns.waiting.pipe(Effect.repeat({ until: (w) => w === n, schedule: Schedule.spaced("5 millis") }))
        const beganAre = (n: number) =>
          Effect.sync(() => began.length).pipe(
            Effect.repeat({ until: (k) => k === n, schedule: Schedule.spaced("5 millis") })
          )
        const finish = (name: string) => Deferred.succeed(gates.get(name)!, undefined)

        const fibers = [yield* draw(a, "a1"), yield* draw(a, "a2")]
        yield* beganAre(2)
        for (const name of ["a3", "a4", "a5", "a6"]) fibers.push(yield* draw(a, name))
        yield* waitingIs(4)
        fibers.push(yield* draw(b, "b1"))
        yield* waitingIs(5)

        yield* finish("a1")
        yield* beganAre(3)
        assert.deepStrictEqual(began, ["a1", "a2", "b1"])
        // A's turns go on in the other slot, one at a time, while B draws.
        yield* finish("a2")
        yield* beganAre(4)
        yield* finish("a3")
        yield* beganAre(5)
        assert.deepStrictEqual(began, ["a1", "a2", "b1", "a3", "a4"])
        yield* finish("b1")
        yield* beganAre(6)
        for (const name of ["a4", "a5", "a6"]) yield* finish(name)
        yield* Effect.forEach(fibers, Fiber.join, { discard: true })
        assert.deepStrictEqual(began, ["a1", "a2", "b1", "a3", "a4", "a5", "a6"])
        assert.strictEqual(yield* turns.waiting, 0)
      }))

    it.effect("a draw given up while waiting leaves the queue, and one given up while drawing frees its slot", () =>
      Effect.gen(function*() {
        const turns = yield* DrawTurns
        const a = yield* newWorkspace("A")
        const never = yield* Deferred.make<void>()
        const holders = [
          yield* Effect.fork(turns.turn(a, Deferred.await(never))),
          yield* Effect.fork(turns.turn(a, Deferred.await(never)))
        ]
        const waiter = yield* Effect.fork(turns.turn(a, Deferred.await(never)))
        yield* turns.waiting.pipe(Effect.repeat({ until: (w) => w === 1, schedule: Schedule.spaced("5 millis") }))
        yield* Fiber.interrupt(waiter)
        assert.strictEqual(yield* turns.waiting, 0)
        yield* Fiber.interrupt(holders[0]!)
        assert.strictEqual(yield* turns.turn(a, Effect.succeed("drawn")), "drawn")
        yield* Fiber.interrupt(holders[1]!)
      }))
  })
})
