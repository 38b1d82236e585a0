import { Context, Effect, FiberRef, Layer, Option } from "effect"
import { ChannelEntity } from "../../channels/ChannelEntity.js"
import { entityCall } from "../../domain/EntityCalls.js"
import { NotFound } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { CurrentRequestId } from "../../domain/RequestId.js"
import { ApprovalsQuery } from "../approvals/ApprovalsQuery.js"
import type { JobUpdateBody } from "./JobEdit.js"

/** Job actions: each goes to the job's channel entity, which takes its steps (posts/JobStatusSteps.ts). */
const make = Effect.gen(function*() {
  const query = yield* ApprovalsQuery
  const channel = yield* ChannelEntity.client

  const cancel = Effect.fn("JobActions.cancel")(function*(workspaceId: WorkspaceId, jobId: string) {
    const owner = yield* query.channelOfJob(workspaceId, jobId)
    if (Option.isNone(owner)) return yield* new NotFound({ message: `No job ${jobId}.` })
    return yield* entityCall(
      channel(owner.value.channelId).CancelJob({
        requestId: yield* FiberRef.get(CurrentRequestId),
        workspaceId,
        jobId
      })
    )
  })

  /** Update, delete and repost go to the job's channel entity, which checks the job has published posts. */
  const ask = <A, E, R>(
    workspaceId: WorkspaceId,
    jobId: string,
    call: (channelId: string, requestId: string) => Effect.Effect<A, E, R>
  ) =>
    Effect.gen(function*() {
      const owner = yield* query.channelOfJob(workspaceId, jobId)
      if (Option.isNone(owner)) return yield* new NotFound({ message: `No job ${jobId}.` })
      return yield* call(owner.value.channelId, yield* FiberRef.get(CurrentRequestId))
    })

  return {
    cancel,
    update: (workspaceId: WorkspaceId, jobId: string, changes: JobUpdateBody) =>
      ask(
        workspaceId,
        jobId,
        (channelId, requestId) => entityCall(channel(channelId).UpdateJob({ requestId, workspaceId, jobId, changes }))
      ),
    remove: (workspaceId: WorkspaceId, jobId: string) =>
      ask(
        workspaceId,
        jobId,
        (channelId, requestId) => entityCall(channel(channelId).DeleteJob({ requestId, workspaceId, jobId }))
      ),
    repost: (workspaceId: WorkspaceId, jobId: string) =>
      ask(
        workspaceId,
        jobId,
        (channelId, requestId) => entityCall(channel(channelId).RepostJob({ requestId, workspaceId, jobId }))
      )
  }
})

export class JobActions
  extends Context.Tag("clipwright/publishing/actions/JobActions")<JobActions, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(JobActions, make)
}
