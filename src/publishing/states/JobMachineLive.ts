import { Layer } from "effect"
import { JobDispatcher } from "./JobDispatcher.js"
import { JobRepo } from "./JobRepo.js"
import { JobStepsLive } from "./JobStepsLive.js"
import { UnheardRenderEnds } from "./UnheardRenderEnds.js"

/**
 * The job and post state machine's services: the steps the channel entity takes (its JobSteps port), the job
 * dispatcher, the sweep for jobs that missed their render's end, and the job repository.
 */
export const JobMachineLive = JobStepsLive.pipe(
  Layer.provideMerge(Layer.merge(JobDispatcher.layer, UnheardRenderEnds)),
  Layer.provideMerge(JobRepo.layer)
)
