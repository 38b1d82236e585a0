import { SqlClient } from "@effect/sql"
import { assert, describe, layer } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Layer } from "effect"
import { PipelineRenders } from "../../src/renders/runner/PipelineRenders.js"
import { allowanceTestLayer } from "../support/AllowanceLayer.js"
import { newWorkspace } from "../support/ServiceLayer.js"
import { videoOf } from "./RenderAsks.js"

const ReserveAsksTest = PipelineRenders.layer.pipe(Layer.provideMerge(allowanceTestLayer("reserve_asks")))

// The cluster keeps a request's answer under its key, an interruption too, and answers every later request under that
// key with it. CI's fault matrix saw a video's reservation interrupted as PostgreSQL came back: asked under the
// render's id alone, every later ask of that video was answered "interrupted", and its jobs stayed ACCEPTED for good.
describe("asking for a video's reservation", () => {
  layer(ReserveAsksTest, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("an ask cut off while the allowance works leaves the next ask of the video its own answer", () =>
      Effect.gen(function*() {
        const renders = yield* PipelineRenders
        const sql = yield* SqlClient.SqlClient
        const ws = yield* newWorkspace("Interrupted ask")
        const video = videoOf("one video")

        // The allowance's reads wait on a lock while the first ask is cut off: its handler is interrupted, and the
        // cluster stores that as the answer to the first ask.
        const locked = yield* Deferred.make<void>()
        const unlock = yield* Deferred.make<void>()
        const holder = yield* Effect.fork(sql.withTransaction(
          sql`LOCK TABLE allowance_reservations IN ACCESS EXCLUSIVE MODE`.pipe(
            Effect.zipRight(Deferred.succeed(locked, undefined)),
            Effect.zipRight(Deferred.await(unlock))
          )
        ))
        yield* Deferred.await(locked)
        const first = yield* Effect.exit(
          renders.renderFor(ws, video, "job A, first hand-over").pipe(Effect.timeout("1 second"))
        )
        assert.isTrue(Exit.isFailure(first))
        yield* Deferred.succeed(unlock, undefined)
        yield* Fiber.join(holder)

        // The job is handed over again: a new ask, answered by the allowance, not by the first ask's kept answer.
        const again = yield* renders.renderFor(ws, video, "job A, second hand-over").pipe(Effect.timeout("20 seconds"))
        assert.strictEqual(again._tag, "Rendering")
        const [reserved] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM allowance_reservations
          WHERE workspace_id = ${ws}`
        assert.strictEqual(reserved!.n, 1)
      }))
  })
})
