import { Effect, Layer } from "effect"
import { ChannelEntity } from "../../channels/ChannelEntity.js"
import { ClipRemovedListeners } from "../../renders/clips/ClipRemovedListeners.js"
import { ApprovalWaitersRepo } from "./ApprovalWaitersRepo.js"

/**
 * Channels answering renders' `ClipRemovedListeners`: a job still awaiting approval on a deleted clip can never post
 * without it, so its channel entity cancels it. The request id comes from the clip and the job, so a retried delete
 * is the same cancel; a job that moved on meanwhile (409) or is gone (404) is left as it is.
 */
export const ChannelClipListeners = Layer.effect(
  ClipRemovedListeners,
  Effect.gen(function*() {
    const repo = yield* ApprovalWaitersRepo
    const channel = yield* ChannelEntity.client
    return ClipRemovedListeners.of({
      removed: (workspaceId, clipId, renderJobId) =>
        Effect.gen(function*() {
          const waiting = yield* repo.awaitingApproval(workspaceId, renderJobId)
          yield* Effect.forEach(waiting, (job) =>
            channel(job.channelId).CancelJob({
              requestId: `clip-removed:${clipId}:${job.id}`,
              workspaceId,
              jobId: job.id
            })
              .pipe(Effect.catchTags({
                Conflict: () => Effect.void,
                NotFound: () => Effect.void
              })), { concurrency: 8, discard: true })
        }).pipe(Effect.orDie, Effect.withSpan("ClipRemovedListeners.removed", { attributes: { clipId, renderJobId } }))
    })
  })
).pipe(Layer.provide(ApprovalWaitersRepo.layer))
