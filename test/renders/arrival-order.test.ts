import { SqlClient } from "@effect/sql"
import { assert, describe, it, layer } from "@effect/vitest"
import { ConfigProvider, Deferred, Effect, Either, Fiber } from "effect"
import { AppConfig } from "../../src/Config.js"
import type { WorkspaceId } from "../../src/domain/Principal.js"
import { RenderCapacity } from "../../src/renders/allowance/RenderCapacity.js"
import { RenderQueue } from "../../src/renders/RenderQueue.js"
import { RenderRepo } from "../../src/renders/RenderRepo.js"
import { newWorkspace } from "../support/ServiceLayer.js"
import { heldRunners, queuedRender, renderSlotsLayer } from "./QueuedRenders.js"

/**
 * Three exports of A, then one pipeline render of B, then one of A, all waiting while both slots are held: the renders
 * named in the order their slots were given (the first two together), and what `ahead` said of B's and A's pipeline
 * render before any was drawn.
 */
const drawOrder = Effect.gen(function*() {
  const capacity = yield* RenderCapacity
  const repo = yield* RenderRepo
  const queue = yield* RenderQueue
  const sql = yield* SqlClient.SqlClient
  const a = yield* newWorkspace("Flooding A")
  const b = yield* newWorkspace("Single B")
  const names = new Map<string, string>()
  const queued = (workspaceId: WorkspaceId, origin: string, name: string) =>
    Effect.tap(queuedRender(workspaceId, origin, name), (id) => Effect.sync(() => names.set(id, name)))
  const { finish, lined, next, runner } = yield* heldRunners

  const keyframes = yield* Deferred.make<void>()
  const held = yield* Effect.forkAll([0, 1].map(() => capacity.withSlot(Deferred.await(keyframes))))
  const renders: Array<[WorkspaceId, string]> = []
  for (const name of ["A1", "A2", "A3"]) renders.push([a, yield* queued(a, "export", name)])
  const ofB = yield* queued(b, "custom", "B")
  const pipelineOfA = yield* queued(a, "custom", "Ap")
  renders.push([b, ofB], [a, pipelineOfA])
  const fibers = yield* Effect.forEach(renders, ([workspaceId, id]) => runner(workspaceId, id))
  yield* lined(renders.length)
  const ahead = { b: yield* queue.ahead(b, ofB), pipelineOfA: yield* queue.ahead(a, pipelineOfA) }
  const exportAhead = yield* repo.ahead(a, renders[2]![1])

  yield* Deferred.succeed(keyframes, undefined)
  yield* Fiber.join(held)
  const drawn: Array<string> = []
  const order: Array<string> = []
  const take = Effect.tap(next, (id) => Effect.sync(() => drawn.push(id)))
  order.push([names.get(yield* take), names.get(yield* take)].sort().join("+"))
  for (let i = 0; i < renders.length - 2; i++) {
    const first = drawn.shift()!
    yield* finish(first)
    order.push(names.get(yield* take)!)
  }
  for (const id of drawn) yield* finish(id)
  yield* Fiber.joinAll(fibers)
  const attempts = yield* sql<{ attempt: number }>`SELECT DISTINCT attempt FROM render_jobs`
  assert.deepStrictEqual(attempts, [{ attempt: 1 }])
  return { order, ahead, exportAhead }
})

describe("TEST_RENDER_ORDER=arrival: the render queue served in arrival order (to measure what the turns cost)", () => {
  layer(renderSlotsLayer("arrival_order", { renderOrder: "arrival" }), { timeout: 60_000, excludeTestServices: true })(
    (it) => {
      it.effect("renders are drawn as they came, whoever's; `ahead` counts every render that came before", () =>
        Effect.gen(function*() {
          const { ahead, exportAhead, order } = yield* drawOrder
          assert.deepStrictEqual(order, ["A1+A2", "A3", "B", "Ap"])
          assert.deepStrictEqual(ahead.b, { otherWorkspaces: 3, ownPipeline: 0, ownExports: 0 })
          assert.deepStrictEqual(ahead.pipelineOfA, { otherWorkspaces: 1, ownPipeline: 0, ownExports: 3 })
          assert.strictEqual(exportAhead, 2)
        }))
    }
  )

  layer(renderSlotsLayer("fair_order_default"), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("without it, the same renders take turns: B's and A's pipeline render first", () =>
      Effect.gen(function*() {
        const { ahead, exportAhead, order } = yield* drawOrder
        assert.deepStrictEqual(order, ["Ap+B", "A1", "A2", "A3"])
        assert.deepStrictEqual(ahead.b, { otherWorkspaces: 0, ownPipeline: 0, ownExports: 0 })
        assert.deepStrictEqual(ahead.pipelineOfA, { otherWorkspaces: 1, ownPipeline: 0, ownExports: 0 })
        assert.strictEqual(exportAhead, 4)
      }))
  })

  const settingsFrom = (env: Record<string, string>) =>
    Effect.provide(AppConfig, AppConfig.layer).pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
      Effect.either
    )

  it.effect("the node reads it from TEST_RENDER_ORDER: fair unless set, and nothing but fair or arrival", () =>
    Effect.gen(function*() {
      const unset = yield* settingsFrom({})
      const arrival = yield* settingsFrom({ TEST_RENDER_ORDER: "arrival" })
      const other = yield* settingsFrom({ TEST_RENDER_ORDER: "lifo" })
      assert.strictEqual(Either.isRight(unset) && unset.right.renderOrder, "fair")
      assert.strictEqual(Either.isRight(arrival) && arrival.right.renderOrder, "arrival")
      assert.isTrue(Either.isLeft(other))
    }))
})
