import { Effect, Layer } from "effect"
import { JobSteps } from "../../channels/JobSteps.js"
import { decisionHandlers } from "./DecisionHandlers.js"
import { jobHandlers } from "./JobHandlers.js"
import { postActions } from "./PostActions.js"

/** Publishing's answer to the channel entity's JobSteps port: the job handlers, people's decisions and post actions. */
export const JobStepsLive = Layer.effect(
  JobSteps,
  Effect.gen(function*() {
    const jobs = yield* jobHandlers
    const decisions = yield* decisionHandlers
    const published = yield* postActions
    return JobSteps.of({
      start: jobs.start,
      renderEnded: jobs.renderEnded,
      decide: decisions.decide,
      cancel: decisions.cancel,
      cancelAllOf: decisions.cancelAllOf,
      update: published.update,
      remove: published.remove,
      repost: published.repost
    })
  })
)
