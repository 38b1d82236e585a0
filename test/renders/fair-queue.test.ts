import { SqlClient } from "@effect/sql"
import { assert, describe, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import type { WorkspaceId } from "../../src/domain/Principal.js"
import { RenderCapacity } from "../../src/renders/allowance/RenderCapacity.js"
import { RenderQueue } from "../../src/renders/RenderQueue.js"
import { RenderRepo } from "../../src/renders/RenderRepo.js"
import { newWorkspace } from "../support/ServiceLayer.js"
import { heldRunners, queuedRender, renderSlotsLayer } from "./QueuedRenders.js"

const FairQueueTest = renderSlotsLayer("fair_queue")
const queued = (workspaceId: WorkspaceId, origin: string) => queuedRender(workspaceId, origin, "Fair")

describe("the render queue takes turns between workspaces", () => {
  layer(FairQueueTest, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("one video of B waits behind one video per busy slot, however long A's line; A's pipeline before A's exports", () =>
      Effect.gen(function*() {
        const capacity = yield* RenderCapacity
        const repo = yield* RenderRepo
        const queue = yield* RenderQueue
        const sql = yield* SqlClient.SqlClient
        const a = yield* newWorkspace("Flooding A")
        const b = yield* newWorkspace("Single B")
        const { finish, lined, next, runner } = yield* heldRunners

        const exportsOfA: Array<string> = []
        for (let i = 0; i < 12; i++) exportsOfA.push(yield* queued(a, "export"))
        const fibers: Array<Fiber.RuntimeFiber<void>> = []
        // Both slots busy with work someone waits on (keyframes) while A's runners line up.
        const keyframes = yield* Deferred.make<void>()
        const held = yield* Effect.forkAll([0, 1].map(() => capacity.withSlot(Deferred.await(keyframes))))
        for (const id of exportsOfA) fibers.push(yield* runner(a, id))
        yield* lined(12)
        yield* Deferred.succeed(keyframes, undefined)
        yield* Fiber.join(held)
        assert.deepStrictEqual([yield* next, yield* next].sort(), exportsOfA.slice(0, 2).sort())
        const first = yield* repo.findJob(a, exportsOfA[0]!)
        assert.strictEqual(first._tag === "Some" && first.value.state, "SUBMITTED")

        // B's one video and a pipeline render of A arrive after A's twelve exports.
        const ofB = yield* queued(b, "custom")
        const pipelineOfA = yield* queued(a, "custom")
        // B's is next in the cluster's order (A holds both slots); A's pipeline render is before A's own exports.
        assert.strictEqual(yield* repo.ahead(b, ofB), 0)
        assert.deepStrictEqual(yield* queue.ahead(a, pipelineOfA), {
          otherWorkspaces: 1,
          ownPipeline: 0,
          ownExports: 0
        })
        assert.deepStrictEqual(yield* queue.ahead(a, exportsOfA[2]!), {
          otherWorkspaces: 1,
          ownPipeline: 1,
          ownExports: 0
        })
        fibers.push(yield* runner(b, ofB), yield* runner(a, pipelineOfA))
        yield* lined(12)

        yield* finish(exportsOfA[0]!)
        assert.strictEqual(yield* next, ofB)
        yield* finish(exportsOfA[1]!)
        assert.strictEqual(yield* next, pipelineOfA)
        yield* finish(ofB)
        assert.strictEqual(yield* next, exportsOfA[2])

        // A render cancelled while it waits is not drawn and takes no slot.
        assert.isTrue(yield* repo.finishIfOpen(a, exportsOfA[4]!, "CANCELLED", "cancelled"))
        yield* finish(pipelineOfA)
        assert.strictEqual(yield* next, exportsOfA[3])
        const rest = [exportsOfA[2]!, exportsOfA[3]!, ...exportsOfA.slice(5)]
        for (let i = 2; i < rest.length; i++) {
          yield* finish(rest[i - 2]!)
          assert.strictEqual(yield* next, rest[i])
        }
        yield* finish(rest[rest.length - 2]!)
        yield* finish(rest[rest.length - 1]!)
        yield* Fiber.joinAll(fibers)
        const states = yield* sql<
          { state: string; n: number }
        >`SELECT state, count(*)::int AS n FROM render_jobs GROUP BY state ORDER BY state`
        // Each drawn once: claimed from PENDING once (attempt 1), the cancelled one never.
        assert.deepStrictEqual(states, [{ state: "CANCELLED", n: 1 }, { state: "COMPLETED", n: 13 }])
        const attempts = yield* sql<
          { attempt: number }
        >`SELECT DISTINCT attempt FROM render_jobs WHERE state = 'COMPLETED'`
        assert.deepStrictEqual(attempts, [{ attempt: 1 }])
      }))
  })
})
