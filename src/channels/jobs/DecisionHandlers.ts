import { Effect, Option } from "effect"
import { Conflict, InvalidStateTransition, NotFound } from "../../domain/Errors.js"
import { PipelineRenders } from "../../renders/jobs/PipelineRenders.js"
import type { CancelJob, DecideApproval } from "../ChannelEntity.js"
import { JobRepo } from "./JobRepo.js"
import { finished, type JobStatus } from "./JobStatus.js"

/** Everything a job may still be in when a person cancels it. */
const open: ReadonlyArray<JobStatus> = ["ACCEPTED", "AWAITING_RENDERING", "AWAITING_APPROVAL", "SCHEDULED"]

/**
 * People's decisions on a channel's jobs, made through its entity: an approval (approved: released for hand-over at
 * once; rejected: stopped) and a cancel (the render stopped unless another job still waits on it, the post cancelled).
 */
export const decisionHandlers = Effect.gen(function*() {
  const repo = yield* JobRepo
  const renders = yield* PipelineRenders

  const decide = ({ approvalId, note, state, workspaceId }: DecideApproval) =>
    repo.withTransaction(Effect.gen(function*() {
      const decided = yield* repo.decideApproval(workspaceId, approvalId, state, note)
      if (Option.isNone(decided)) {
        return yield* new InvalidStateTransition({ message: `Approval ${approvalId} is not pending: it was decided already.` })
      }
      const jobId = decided.value.jobId
      yield* repo.move(workspaceId, jobId, ["AWAITING_APPROVAL"], state === "APPROVED" ? "SCHEDULED" : "REJECTED")
      const posts = yield* repo.postsOf(workspaceId, jobId)
      return { postIds: posts.map((post) => post.id), state }
    })).pipe(Effect.catchTag("SqlError", Effect.die))

  const cancel = ({ jobId, workspaceId }: CancelJob) =>
    Effect.gen(function*() {
      const found = yield* repo.findToStart(workspaceId, jobId)
      if (Option.isNone(found)) return yield* new NotFound({ message: `No job ${jobId}.` })
      const job = found.value
      if (finished.has(job.status) || !open.includes(job.status)) {
        return yield* new Conflict({ message: `Job ${jobId} is ${job.status}: nothing is left to cancel.` })
      }
      const posts = yield* repo.postsOf(workspaceId, jobId)
      const moved = yield* repo.move(workspaceId, jobId, open, "CANCELLED", { error: "cancelled" })
      if (!moved) return yield* new Conflict({ message: `Job ${jobId} moved on meanwhile: nothing is left to cancel.` })
      let renderStopped = false
      if (job.status === "AWAITING_RENDERING" && job.renderJobId !== null) {
        const others = yield* repo.othersWaitingOn(workspaceId, jobId, job.renderJobId)
        if (others === 0) renderStopped = yield* renders.stop(job.renderJobId, "cancelled")
      }
      return { ok: true as const, cancelledPosts: posts.length, renderStopped }
    })

  return { decide, cancel }
})
