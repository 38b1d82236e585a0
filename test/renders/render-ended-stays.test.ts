import { SqlClient } from "@effect/sql"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { BrandLooks } from "../../src/brands/BrandLooks.js"
import { BrandRepo } from "../../src/brands/BrandRepo.js"
import { newUlid } from "../../src/domain/Ulid.js"
import { DrawingRenderer } from "../../src/drawing/DrawingRenderer.js"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { MediaFiles } from "../../src/media/MediaFiles.js"
import { MediaRepo } from "../../src/media/MediaRepo.js"
import type { RenderPackage } from "../../src/renders/RenderJob.js"
import { RenderRepo } from "../../src/renders/RenderRepo.js"
import { RenderOutputs } from "../../src/renders/runner/RenderOutputs.js"
import { LocalBlobStorage } from "../../src/storage/LocalBlobStorage.js"
import { newWorkspace, serviceTestLayer } from "../support/ServiceLayer.js"

// The real drawing of outputs (drawer and ffmpeg) on a fresh database: what a runner does, without the cluster around it.
const DrawingTest = Layer.mergeAll(RenderOutputs.layer, Identity.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(BrandLooks.layer, DrawingRenderer.layer)),
  Layer.provideMerge(Layer.mergeAll(BrandRepo.layer, MediaFiles.layer.pipe(Layer.provide(MediaRepo.layer)))),
  Layer.provideMerge(Layer.mergeAll(RenderRepo.layer, IdentityRepo.layer, LocalBlobStorage.layer)),
  Layer.provideMerge(serviceTestLayer("render_ended_stays"))
)

const renderPackage: RenderPackage = {
  template: { id: "tpl_3a7c91e04b5d", name: "Market move", variant: "compact", version: "1.0.1" },
  content: { clipData: { headline: "Stays ended" } },
  brand: null,
  channel: null,
  options: { outputs: [{ ratio: "9x16", locale: "en" }], priority: false }
}

const clipsOf = (renderJobId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ id: string }>`SELECT id FROM clips WHERE render_job_id = ${renderJobId}`.pipe(Effect.orDie)
  )

describe("a render that ended stays ended", () => {
  layer(DrawingTest, { timeout: 120_000, excludeTestServices: true })((it) => {
    // A node frozen past its shard lock (SIGSTOP, a paused VM) comes back while its render was taken over and drawn
    // elsewhere. Its late drawing once wrote the render back to RENDERING/STORED after it had COMPLETED: the render
    // looked open for good, nothing announced it again, and a job sharing the video (render once) waited forever.
    it.effect("a late second drawing writes nothing: state, outputs and clips stay as the finished one left them", () =>
      Effect.gen(function*() {
        const repo = yield* RenderRepo
        const outputs = yield* RenderOutputs
        const ws = yield* newWorkspace("Render ended stays")
        const id = newUlid()
        const contentKey = `stays-ended-${id}`
        yield* repo.insertJob(ws, {
          id,
          origin: "custom",
          details: "stays ended",
          postTitle: null,
          package: renderPackage,
          templateName: "Market move",
          contentKey
        })
        const job = Option.getOrThrow(yield* repo.findJob(ws, id))
        const first = yield* outputs.drawAll(job)
        assert.strictEqual(first.state, "COMPLETED")
        assert.isTrue(yield* repo.finishIfOpen(ws, id, first.state, first.error))
        const finished = Option.getOrThrow(yield* repo.findJob(ws, id))
        const clips = yield* clipsOf(id)
        assert.strictEqual(clips.length, 1)

        // The runner taken over reads the render as it was before the other finished, and draws it again.
        assert.isFalse(yield* repo.setState(ws, id, "SUBMITTED", { attempt: job.attempt + 1 }))
        yield* outputs.drawAll(job)

        const after = Option.getOrThrow(yield* repo.findJob(ws, id))
        assert.strictEqual(after.state, "COMPLETED")
        assert.strictEqual(after.attempt, finished.attempt)
        assert.deepStrictEqual(after.finishedAt, finished.finishedAt)
        assert.strictEqual(after.progress, 1)
        assert.deepStrictEqual((yield* clipsOf(id)).map((c) => c.id), clips.map((c) => c.id))
        // What a job asking for the same video reads: a finished render to take its clip from, not one to wait on.
        const shared = yield* repo.byContent(ws, contentKey)
        assert.deepStrictEqual(Option.map(shared.reusable, (r) => r.state), Option.some("COMPLETED" as const))
      }))
  })
})
