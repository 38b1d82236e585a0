import { SqlClient } from "@effect/sql"
import { assert, describe, layer } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Queue, Scope } from "effect"
import type { WorkspaceId } from "../../src/domain/Principal.js"
import { RenderCapacity } from "../../src/renders/allowance/RenderCapacity.js"
import { RenderRepo } from "../../src/renders/RenderRepo.js"
import { newWorkspace } from "../support/ServiceLayer.js"
import { queuedRender, renderSlotsLayer } from "./QueuedRenders.js"

const CrossNodeTest = renderSlotsLayer("cross_node_claim")
const queued = (workspaceId: WorkspaceId, origin: string) => queuedRender(workspaceId, origin, "Cross")

const DRAWN_ELSEWHERE = "drawn elsewhere"

describe("a free slot on any node draws the next render in the fair order", () => {
  layer(CrossNodeTest, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("B's render, its runner on a node whose slots A's renders hold, is drawn by the other node's free slot", () =>
      Effect.gen(function*() {
        const node1 = yield* RenderCapacity
        const repo = yield* RenderRepo
        const sql = yield* SqlClient.SqlClient
        const a = yield* newWorkspace("Flooding A")
        const b = yield* newWorkspace("Single B")
        const grants = yield* Queue.unbounded<string>()
        const finishes = new Map<string, Deferred.Deferred<void>>()
        /** A runner of node 1: waits for its turn, then draws until the test lets it finish. */
        const runnerOnNode1 = (workspaceId: WorkspaceId, id: string) =>
          Effect.gen(function*() {
            const finish = yield* Deferred.make<void>()
            finishes.set(id, finish)
            return yield* Effect.fork(node1.drawInTurn(
              workspaceId,
              id,
              Effect.zipRight(Queue.offer(grants, id), Effect.as(Deferred.await(finish), "drawn here")),
              DRAWN_ELSEWHERE
            ))
          })
        const finish = (workspaceId: WorkspaceId, id: string) =>
          Effect.zipRight(
            repo.finishIfOpen(workspaceId, id, "COMPLETED", null),
            Deferred.succeed(finishes.get(id)!, undefined)
          )
        const row = (id: string) =>
          Effect.map(
            sql<{ state: string; drawnBy: string | null; attempt: number }>`
            SELECT state, drawn_by, attempt FROM render_jobs WHERE id = ${id}`,
            ([r]) => r!
          )
        const lined = (n: number) =>
          Effect.gen(function*() {
            while ((yield* node1.waitingHere) < n) yield* Effect.sleep("20 millis")
          })

        // A's three exports, their runners on node 1: its two slots take the first two.
        const ofA = [yield* queued(a, "export"), yield* queued(a, "export"), yield* queued(a, "export")]
        const runnersOfA = [] as Array<Fiber.RuntimeFiber<string>>
        for (const id of ofA) runnersOfA.push(yield* runnerOnNode1(a, id))
        assert.deepStrictEqual([yield* Queue.take(grants), yield* Queue.take(grants)].sort(), ofA.slice(0, 2).sort())
        // B's one render, its runner on node 1 too, behind A's third in arrival but first in the fair order.
        const ofB = yield* queued(b, "custom")
        const runnerOfB = yield* runnerOnNode1(b, ofB)
        yield* lined(2)
        assert.strictEqual((yield* row(ofB)).state, "PENDING")

        // Node 2 joins with two free slots: it claims B's render first, then A's third, though no runner of either is
        // on it; node 1's slots stay busy.
        const scope2 = yield* Scope.make()
        const node2 = Context.get(
          yield* Layer.buildWithScope(Layer.fresh(RenderCapacity.layer), scope2),
          RenderCapacity
        )
        assert.notStrictEqual(node2.nodeId, node1.nodeId)
        // Without the cross-node claim node 2 takes nothing: the wait fails instead of hanging.
        const drawnByNode2 = Effect.timeout(Queue.take(node2.drawnForOthers), "10 seconds")
        const first = yield* drawnByNode2
        assert.deepStrictEqual([first.id, first.workspaceId], [ofB, b])
        assert.deepStrictEqual(yield* row(ofB), { state: "SUBMITTED", drawnBy: node2.nodeId, attempt: 1 })
        const second = yield* drawnByNode2
        assert.strictEqual(second.id, ofA[2])
        assert.strictEqual((yield* row(ofA[2]!)).drawnBy, node2.nodeId)

        // Node 2 draws B's render to its end (as DrawsForOthers does); B's runner on node 1 sees it ended, drew
        // nothing, and took no slot of node 1.
        assert.isTrue(yield* repo.finishIfOpen(b, ofB, "COMPLETED", null))
        yield* node2.release(ofB)
        assert.strictEqual(yield* Fiber.join(runnerOfB), DRAWN_ELSEWHERE)
        assert.strictEqual(yield* Queue.size(grants), 0)

        // Node 2 dies while drawing A's third: the render waits again at its place, and node 1's next free slot
        // draws it (its runner is there), a second attempt of the same row.
        yield* Scope.close(scope2, Exit.void)
        yield* finish(a, ofA[0]!)
        assert.strictEqual(yield* Queue.take(grants), ofA[2])
        assert.deepStrictEqual(yield* row(ofA[2]!), { state: "SUBMITTED", drawnBy: node1.nodeId, attempt: 2 })
        yield* finish(a, ofA[1]!)
        yield* finish(a, ofA[2]!)
        assert.deepStrictEqual(yield* Fiber.joinAll(runnersOfA), ["drawn here", "drawn here", "drawn here"])
        const states = yield* sql<{ state: string; n: number }>`
          SELECT state, count(*)::int AS n FROM render_jobs GROUP BY state ORDER BY state`
        assert.deepStrictEqual(states, [{ state: "COMPLETED", n: 4 }])
      }))
  })
})
