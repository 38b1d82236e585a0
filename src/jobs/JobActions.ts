import { Context, Effect, FiberRef, Layer, Option } from "effect"
import { ChannelEntity } from "../channels/ChannelEntity.js"
import { entityCall } from "../domain/EntityCalls.js"
import { Conflict, NotFound } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { ApprovalsQuery } from "./ApprovalsQuery.js"

/** Job actions: each goes to the job's channel entity, the only writer of its jobs. */
const make = Effect.gen(function*() {
  const query = yield* ApprovalsQuery
  const channel = yield* ChannelEntity.client

  const cancel = Effect.fn("JobActions.cancel")(function*(workspaceId: WorkspaceId, jobId: string) {
    const owner = yield* query.channelOfJob(workspaceId, jobId)
    if (Option.isNone(owner)) return yield* new NotFound({ message: `No job ${jobId}.` })
    return yield* entityCall(channel(owner.value.channelId).CancelJob({
      requestId: yield* FiberRef.get(CurrentRequestId),
      workspaceId,
      jobId
    }))
  })

  /**
   * Update, delete and repost act on published posts, which hand-over makes; a job with none is refused as the spec's
   * flags (`updatable`, `deletable`, `repostable`) announce.
   */
  const requirePublished = Effect.fn("JobActions.requirePublished")(function*(
    workspaceId: WorkspaceId,
    jobId: string,
    action: string
  ) {
    const job = yield* query.channelOfJob(workspaceId, jobId)
    if (Option.isNone(job)) return yield* new NotFound({ message: `No job ${jobId}.` })
    return yield* new Conflict({
      message: `Job ${jobId} is ${job.value.status}: only a job with published posts can be ${action}.`
    })
  })

  return {
    cancel,
    update: (workspaceId: WorkspaceId, jobId: string) => requirePublished(workspaceId, jobId, "updated"),
    remove: (workspaceId: WorkspaceId, jobId: string) => requirePublished(workspaceId, jobId, "deleted"),
    repost: (workspaceId: WorkspaceId, jobId: string) => requirePublished(workspaceId, jobId, "reposted")
  }
})

export class JobActions extends Context.Tag("clipwright/jobs/JobActions")<JobActions, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(JobActions, make)
}
