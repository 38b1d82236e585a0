import { Effect, Layer } from "effect"
import { ChannelEntity } from "../../channels/ChannelEntity.js"
import { RenderEndListeners } from "../../renders/runner/RenderEndListeners.js"
import { JobRepo } from "./JobRepo.js"

/** Channels answering renders' `RenderEndListeners`: every job waiting on the render hears of its end. */
export const ChannelRenderListeners = Layer.effect(
  RenderEndListeners,
  Effect.gen(function*() {
    const repo = yield* JobRepo
    const channel = yield* ChannelEntity.client
    return RenderEndListeners.of({
      ended: (workspaceId, renderJobId, state) =>
        Effect.gen(function*() {
          const waiting = yield* repo.waitingOn(workspaceId, renderJobId)
          yield* Effect.forEach(waiting, (job) =>
            channel(job.channelId).JobRenderEnded(
              { workspaceId, jobId: job.id, renderJobId, state, error: job.renderError },
              { discard: true }
            ), { concurrency: 8, discard: true })
        }).pipe(Effect.orDie, Effect.withSpan("RenderEndListeners.ended", { attributes: { renderJobId } }))
    })
  })
)
