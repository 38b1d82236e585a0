import { Effect, Exit, Layer, Option, Queue, Schedule } from "effect"
import { timedRender } from "../../observability/Metrics.js"
import { ridingOutOutage } from "../../sql/OutageRetries.js"
import { RenderCapacity } from "../allowance/RenderCapacity.js"
import { isTerminal } from "../RenderJob.js"
import type { Claimed } from "../RenderQueue.js"
import { RenderQueue } from "../RenderQueue.js"
import { RenderRepo } from "../RenderRepo.js"
import { RenderOutputs } from "./RenderOutputs.js"

/** How often a render drawn here for another node's runner is looked at for an end (a cancel) that makes it moot. */
const LOOK_FOR_END = "2 seconds"

/**
 * Draws the renders this node's free slots claimed whose runner lives on another node (runners are tied to shards,
 * slots are not): the next render in the cluster's fair order is drawn by the first slot that frees, anywhere. The
 * drawing here ends the render's row as the runner would; the runner, waiting for its turn on its own node, sees the
 * render ended and announces the end (the allowance settled once, the export or the pipeline told) as it does for a
 * render it drew. A draw here that stops without ending the render puts it back in line; if this node dies, the node
 * of its runner puts it back (RenderCapacity). A cancel ends the row; the draw here stops at its next look.
 */
export const DrawsForOthers = Layer.scopedDiscard(Effect.gen(function*() {
  const capacity = yield* RenderCapacity
  const queue = yield* RenderQueue
  const repo = yield* RenderRepo
  const outputs = yield* RenderOutputs

  const endedMeanwhile = (id: string) =>
    Effect.repeat(queue.ended([id]), { until: (ended) => ended.length > 0, schedule: Schedule.spaced(LOOK_FOR_END) })

  const draw = (id: string) =>
    Effect.gen(function*() {
      const job = Option.getOrUndefined(yield* repo.findJobUnscoped(id))
      if (job === undefined || isTerminal(job.state)) return
      const drawn = yield* timedRender(job.origin)(outputs.drawAll(job)).pipe(
        Effect.map(Option.some),
        Effect.raceFirst(Effect.as(endedMeanwhile(id), Option.none()))
      )
      if (Option.isSome(drawn)) yield* repo.finishIfOpen(job.workspaceId, id, drawn.value.state, drawn.value.error)
    })

  const drawFor = ({ id }: Claimed) =>
    ridingOutOutage(draw(id)).pipe(
      Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : ridingOutOutage(queue.putBack(id, capacity.nodeId))),
      Effect.catchAllCause((cause) => Effect.logWarning("A render drawn for another node's runner stopped", cause)),
      Effect.ensuring(capacity.release(id)),
      Effect.withSpan("RenderSlots.drawForOther", { attributes: { jobId: id } })
    )

  const scope = yield* Effect.scope
  yield* Queue.take(capacity.drawnForOthers).pipe(
    Effect.flatMap((claimed) => Effect.forkIn(drawFor(claimed), scope)),
    Effect.forever,
    Effect.forkScoped
  )
}))
