import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { StorageRepo } from "../../src/media/StorageRepo.js"
import { StorageUsage } from "../../src/media/StorageUsage.js"
import { AllowanceRepo } from "../../src/renders/allowance/AllowanceRepo.js"
import { Quotas } from "../../src/renders/allowance/Quotas.js"
import { RenderCapacity } from "../../src/renders/allowance/RenderCapacity.js"
import { WorkspaceAllowanceEntityLive } from "../../src/renders/allowance/WorkspaceAllowanceEntityLive.js"
import { type PipelineRender, PipelineRenders } from "../../src/renders/jobs/PipelineRenders.js"
import { RenderRepo } from "../../src/renders/jobs/RenderRepo.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { newWorkspace, serviceTestLayer } from "../support/ServiceLayer.js"

// The render runners' group is served by no runner here: a Start waits in storage, so nothing is drawn and what is
// checked is how jobs asking for one video at about the same time share its render and its reservation.
const RenderOnceTest = Layer.mergeAll(PipelineRenders.layer, WorkspaceAllowanceEntityLive, Quotas.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(Identity.layer, StorageUsage.layer, RenderCapacity.layer)),
  Layer.provideMerge(Layer.mergeAll(
    AllowanceRepo.layer,
    RenderRepo.layer,
    IdentityRepo.layer,
    StorageRepo.layer,
    LocalBlobStorage.layer
  )),
  Layer.provideMerge(serviceTestLayer("render_once_race"))
)

const videoOf = (contentKey: string): PipelineRender => ({
  package: {
    template: { id: "tpl_3a7c91e04b5d", name: "Market move", variant: "compact", version: "1.0.1" },
    content: { clipData: { headline: contentKey } },
    brand: null,
    channel: null,
    options: { outputs: [{ ratio: "9x16", locale: "en" }], priority: false }
  },
  contentKey,
  origin: "custom",
  details: "render once",
  postTitle: null,
  templateName: "Market move"
})

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
            Effect.delay(renders.renderFor(ws, video), `${i * 2} millis`), { concurrency: "unbounded" })
          const ids = new Set(asked.map((answer) => answer._tag === "Rendering" ? answer.renderJobId : answer.reason))
          assert.strictEqual(ids.size, 1, `round ${round}: ${[...ids].join(", ")}`)
        }
        const quota = yield* quotas.quota(ws)
        // Five videos reserved (none drawn yet), each once.
        assert.strictEqual(quota.remaining, 500 - 5)
      }))
  })
})
