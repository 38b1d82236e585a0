import { Effect, Option } from "effect"
import type { CancelJob, DecideApproval } from "../../channels/ChannelEntity.js"
import { Conflict, InvalidStateTransition, NotFound } from "../../domain/Errors.js"
import { finished, type JobStatus } from "../../posts/JobStatus.js"
import { isFrom, statusSteps } from "../../posts/JobStatusSteps.js"
import { PipelineRenders } from "../../renders/runner/PipelineRenders.js"
import { JobRepo } from "./JobRepo.js"

/**
 * People's decisions on a channel's jobs, made through its entity: an approval (approved: released for hand-over at
 * once; rejected: stopped) and a cancel (the render stopped unless another job still waits on it, the post cancelled).
 */
export const decisionHandlers = Effect.gen(function*() {
  const repo = yield* JobRepo
  const renders = yield* PipelineRenders

  const decide = ({ approvalId, decidedBy, note, state, workspaceId }: DecideApproval) =>
    repo.withTransaction(Effect.gen(function*() {
      const decided = yield* repo.decideApproval(workspaceId, approvalId, { state, note, decidedBy })
      if (Option.isNone(decided)) {
        return yield* new InvalidStateTransition({
          message: `Approval ${approvalId} is not pending: it was decided already.`
        })
      }
      const jobId = decided.value.jobId
      yield* repo.move(workspaceId, jobId, state === "APPROVED" ? "approve" : "reject")
      const posts = yield* repo.postsOf(workspaceId, jobId)
      return { postIds: posts.map((post) => post.id), state }
    })).pipe(Effect.catchTag("SqlError", Effect.die))

  /** Cancels a job that was open; answers whether it moved and whether its render was stopped. */
  const cancelOpen = (
    workspaceId: CancelJob["workspaceId"],
    job: { id: string; status: JobStatus; renderJobId: string | null },
    reason: string
  ) =>
    Effect.gen(function*() {
      const moved = yield* repo.move(workspaceId, job.id, "cancel", { error: reason })
      if (!moved) return { moved, renderStopped: false }
      if (job.status !== "AWAITING_RENDERING" || job.renderJobId === null) return { moved, renderStopped: false }
      const others = yield* repo.othersWaitingOn(workspaceId, job.id, job.renderJobId)
      return { moved, renderStopped: others === 0 ? yield* renders.stop(workspaceId, job.renderJobId, reason) : false }
    })

  const cancel = ({ jobId, workspaceId }: CancelJob) =>
    Effect.gen(function*() {
      const found = yield* repo.findToStart(workspaceId, jobId)
      if (Option.isNone(found)) return yield* new NotFound({ message: `No job ${jobId}.` })
      const job = found.value
      if (finished.has(job.status) || !isFrom("cancel", job.status)) {
        return yield* new Conflict({ message: `Job ${jobId} is ${job.status}: nothing is left to cancel.` })
      }
      const posts = yield* repo.postsOf(workspaceId, jobId)
      const { moved, renderStopped } = yield* cancelOpen(workspaceId, job, "cancelled")
      if (!moved) return yield* new Conflict({ message: `Job ${jobId} moved on meanwhile: nothing is left to cancel.` })
      return { ok: true as const, cancelledPosts: posts.length, renderStopped }
    })

  /** A deleted channel's jobs that were still to happen: cancelled; answers how many. */
  const cancelAllOf = (workspaceId: CancelJob["workspaceId"], channelId: string) =>
    Effect.gen(function*() {
      const jobs = yield* repo.openJobsOf(workspaceId, channelId, statusSteps.cancel.from)
      const results = yield* Effect.forEach(jobs, (job) => cancelOpen(workspaceId, job, "channel deleted"))
      return results.filter((r) => r.moved).length
    })

  return { decide, cancel, cancelAllOf }
})
