import { Layer } from "effect"
import { PipelineHttpLive } from "./PipelineHttp.js"
import { PipelineQuery } from "./PipelineQuery.js"
import { PipelineViews } from "./PipelineViews.js"

/** The dashboard's reads: `/v1/pipeline`, `/v1/pipeline/{id}`, `/v1/overview` and `/v1/calendar`. */
export const PipelineViewsLive = PipelineHttpLive.pipe(
  Layer.provideMerge(PipelineViews.layer),
  Layer.provideMerge(PipelineQuery.layer)
)
