import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Quotas } from "../../src/renders/allowance/Quotas.js"
import { PipelineRenders } from "../../src/renders/runner/PipelineRenders.js"
import { allowanceTestLayer } from "../support/AllowanceLayer.js"
import { newWorkspace } from "../support/ServiceLayer.js"
import { videoOf } from "./RenderAsks.js"

// The render runners' group is served by no runner here: a Start waits in storage, so nothing is drawn and what is
// checked is how jobs asking for one video at about the same time share its render and its reservation.
const RenderOnceTest = PipelineRenders.layer.pipe(Layer.provideMerge(allowanceTestLayer("render_once_race")))

describe("render once: jobs asking for one video at about the same time", () => {
  layer(RenderOnceTest, { timeout: 120_000, excludeTestServices: true })((it) => {
    // The fault matrix once found a video counted twice: the reuse check and the generation count were two reads, and
    // a render inserted between them made a second generation. Asks arriving every 2 ms straddle the moment the first
    // render is inserted (after its reservation, an entity call), which is when two reads would disagree.
    it.effect("share one render and one reservation, whenever each arrives", () =>
      Effect.gen(function*() {
        const renders = yield* PipelineRenders
        const quotas = yield* Quotas
        const ws = yield* newWorkspace("Render once")
        for (const round of [1, 2, 3, 4, 5]) {
          const video = videoOf(`video ${round}`)
          const asked = yield* Effect.forEach(Array.from({ length: 60 }, (_, i) => i), (i) =>
            Effect.delay(renders.renderFor(ws, video, `ask ${i}`), `${i * 2} millis`), { concurrency: "unbounded" })
          const ids = new Set(asked.map((answer) =>
            answer._tag === "Rendering" ? answer.renderJobId : answer.reason
          ))
          assert.strictEqual(ids.size, 1, `round ${round}: ${[...ids].join(", ")}`)
        }
        const quota = yield* quotas.quota(ws)
        // Five videos reserved (none drawn yet), each once.
        assert.strictEqual(quota.remaining, 500 - 5)
      }))
  })
})
