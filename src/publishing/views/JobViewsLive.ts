import { Layer } from "effect"
import { Jobs } from "./Jobs.js"
import { JobsHttpLive } from "./JobsHttp.js"
import { JobsQuery } from "./JobsQuery.js"
import { JobStories } from "./JobStories.js"

/** The jobs and posts logs: handlers over their service and its SQL; and a job's story, which the console reads. */
export const JobViewsLive = JobsHttpLive.pipe(
  Layer.provide(Jobs.layer),
  Layer.provide(JobsQuery.layer),
  Layer.provideMerge(JobStories.layer)
)
