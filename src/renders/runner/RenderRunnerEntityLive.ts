import { Entity } from "@effect/cluster"
import { Deferred, Effect, Option } from "effect"
import type { WorkspaceId } from "../../domain/Principal.js"
import { timedRender } from "../../observability/Metrics.js"
import { withOutageRetries } from "../../sql/OutageRetries.js"
import { AllowanceRepo } from "../allowance/AllowanceRepo.js"
import { RenderCapacity } from "../allowance/RenderCapacity.js"
import { WorkspaceAllowanceEntity } from "../allowance/WorkspaceAllowanceEntity.js"
import { PipelineClips } from "../clips/PipelineClips.js"
import { ExportEntity } from "../exports/ExportEntity.js"
import { isTerminal, type RenderJobState, type TerminalState } from "../RenderJob.js"
import { RenderRepo } from "../RenderRepo.js"
import { RenderRunnerEntity } from "../RenderRunnerEntity.js"
import { RenderEndListeners } from "./RenderEndListeners.js"
import { RenderOutputs } from "./RenderOutputs.js"

type Outcome = { readonly state: TerminalState; readonly error: string | null }
const cancelledOutcome: Outcome = { state: "CANCELLED", error: "cancelled" }
const unreservedOutcome: Outcome = {
  state: "FAILED",
  error: "Not drawn: the render holds no reservation of the workspace's render allowance."
}

export const RenderRunnerEntityLive = RenderRunnerEntity.toLayer(
  Effect.gen(function*() {
    const jobId = (yield* Entity.CurrentAddress).entityId
    const repo = yield* RenderRepo
    const capacity = yield* RenderCapacity
    const outputs = yield* RenderOutputs
    const allowance = yield* WorkspaceAllowanceEntity.client
    const reservations = yield* AllowanceRepo
    const exports = yield* ExportEntity.client
    const listeners = yield* RenderEndListeners
    const pipelineClips = yield* PipelineClips
    const cancelled = yield* Deferred.make<void>()

    // The entity id is the render job's id: this entity owns the row, and learns its workspace from it.
    const ownJob = repo.findJobUnscoped(jobId).pipe(Effect.map(Option.getOrUndefined))

    // A pipeline render's clips are kept (room made for them) before the jobs waiting on it hear it ended.
    const pipelineEnded = (workspaceId: WorkspaceId, state: RenderJobState) =>
      Effect.zipRight(
        state === "COMPLETED" || state === "PARTIAL" ? pipelineClips.keep(workspaceId, jobId) : Effect.void,
        listeners.ended(workspaceId, jobId, state)
      )

    const announce = (workspaceId: WorkspaceId, origin: string, state: RenderJobState) =>
      Effect.all([
        allowance(workspaceId).Settle(
          { renderJobId: jobId, outcome: state === "COMPLETED" || state === "PARTIAL" ? "commit" : "release" },
          { discard: true }
        ),
        origin === "export"
          ? exports(jobId).RenderEnded({ state }, { discard: true })
          : isTerminal(state)
          ? pipelineEnded(workspaceId, state)
          : Effect.void
      ], { discard: true }).pipe(Effect.orDie)

    const run = Effect.gen(function*() {
      const job = yield* ownJob
      if (job === undefined) return
      if (isTerminal(job.state)) return yield* announce(job.workspaceId, job.origin, job.state)
      // Nothing is drawn uncounted, whatever path started the runner.
      const counted = yield* reservations.holds(job.workspaceId, jobId)
      if (!counted) {
        yield* Effect.logWarning("A render without an allowance reservation was refused").pipe(
          Effect.annotateLogs({ renderJobId: jobId, workspaceId: job.workspaceId })
        )
      }
      // A re-delivered Start (the node that had it died) waits for its turn again and draws from the beginning. Its
      // turn is claimed in PostgreSQL (PENDING to SUBMITTED) by whichever node's slot frees first: ended meanwhile
      // (drawn by another node's slot, DrawsForOthers.ts, or cancelled), it draws nothing here, and the state that
      // stands is announced below.
      const state = !counted ? unreservedOutcome : yield* capacity.drawInTurn(
        job.workspaceId,
        jobId,
        Effect.flatMap(
          Deferred.isDone(cancelled),
          (stop): Effect.Effect<Outcome> =>
            stop ? Effect.succeed(cancelledOutcome) : timedRender(job.origin)(outputs.drawAll(job))
        ),
        cancelledOutcome
      ).pipe(Effect.raceFirst(Effect.as(Deferred.await(cancelled), cancelledOutcome)))
      const moved = yield* repo.finishIfOpen(job.workspaceId, jobId, state.state, state.error)
      // Another end (a cancel) won the race: announce the state that stands.
      const final = moved ? state.state : Option.match(yield* repo.findJob(job.workspaceId, jobId), {
        onNone: () => state.state,
        onSome: (j) => j.state
      })
      yield* announce(job.workspaceId, job.origin, final)
    })

    return RenderRunnerEntity.of(withOutageRetries({
      Start: () => run.pipe(Effect.withSpan("RenderRunner.start", { attributes: { jobId } })),
      Cancel: ({ payload }) =>
        Effect.gen(function*() {
          const job = yield* ownJob
          const moved = job === undefined
            ? false
            : yield* repo.finishIfOpen(job.workspaceId, jobId, "CANCELLED", payload.reason)
          yield* Deferred.succeed(cancelled, undefined)
          return { stopped: moved }
        }).pipe(Effect.withSpan("RenderRunner.cancel", { attributes: { jobId } }))
    }))
  }),
  { concurrency: "unbounded", maxIdleTime: "2 minutes" }
)
