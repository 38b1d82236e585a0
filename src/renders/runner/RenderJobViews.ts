import { Schema } from "effect"
import { pagingParams } from "../../http/Paging.js"
import { RenderJobState, RenderOutputState, RenderPackage } from "../RenderJob.js"

/** `GET /v1/render-jobs` query: `page` from 1, `perPage` 1 to 100 (default 20), optional `state`. */
export const RenderJobsQuery = Schema.Struct({
  ...pagingParams(20),
  state: Schema.optional(RenderJobState).annotations({ description: "Only render jobs in this state." })
})
export type RenderJobsQuery = typeof RenderJobsQuery.Type

export const RenderOutputView = Schema.Struct({
  ratio: Schema.String,
  locale: Schema.String,
  state: RenderOutputState,
  error: Schema.NullOr(Schema.String)
})

/** SPEC "Render job". */
export const RenderJobView = Schema.Struct({
  id: Schema.String,
  origin: Schema.String,
  details: Schema.String,
  postTitle: Schema.NullOr(Schema.String),
  clip: Schema.NullOr(Schema.Struct({ id: Schema.String, mimeType: Schema.String, url: Schema.String })),
  templateId: Schema.String,
  templateName: Schema.String,
  templateVariant: Schema.String,
  templateVersion: Schema.String,
  state: RenderJobState,
  outputsRequested: Schema.Number,
  outputsSucceeded: Schema.Number,
  submittedAt: Schema.String,
  finishedAt: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  priority: Schema.Number,
  clipsStored: Schema.Number,
  progress: Schema.Number,
  outputs: Schema.Array(RenderOutputView)
})
export type RenderJobView = typeof RenderJobView.Type

export const RenderJobPage = Schema.Struct({
  jobs: Schema.Array(RenderJobView),
  total: Schema.Number,
  all: Schema.Number,
  page: Schema.Number,
  perPage: Schema.Number,
  facets: Schema.Struct({ state: Schema.Record({ key: Schema.String, value: Schema.Number }) })
})
export type RenderJobPage = typeof RenderJobPage.Type

/** What the renderer was handed, with the job it belongs to. */
export const RenderJobPackage = Schema.Struct({
  package: Schema.Struct({ ...RenderPackage.fields, jobId: Schema.String })
})
