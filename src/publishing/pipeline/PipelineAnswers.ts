import { Schema } from "effect"
import { PositiveIntParam } from "../../http/Paging.js"
import { JobStatus } from "../../posts/JobStatus.js"
import { RenderJobState } from "../../renders/RenderJob.js"

export const MAX_RECENT = 100

/** `GET /v1/pipeline` query. */
export const PipelineParams = Schema.Struct({
  limit: Schema.optionalWith(PositiveIntParam.pipe(Schema.lessThanOrEqualTo(MAX_RECENT)), { default: () => 20 })
    .annotations({ description: "How many recent render jobs and jobs to list: 1 to 100; default 20." })
})
export type PipelineParams = typeof PipelineParams.Type

/** Every key listed, 0 when nothing is in it, so a block always has one shape. */
export const RenderCounts = Schema.Record({ key: RenderJobState, value: Schema.Number })
export type RenderCounts = typeof RenderCounts.Type
export const StatusCounts = Schema.Record({ key: JobStatus, value: Schema.Number })
export type StatusCounts = typeof StatusCounts.Type

export const PipelineClip = Schema.Struct({
  id: Schema.String,
  url: Schema.String.annotations({ description: "Signed download address, valid about an hour." })
})

/** One job (post group) as the pipeline shows it. */
/** What is ahead of a waiting render under the fair order (workspaces take turns at the render slots). */
export const RenderWait = Schema.Struct({
  reason: Schema.String.annotations({
    description: "In words, e.g. \"2 videos of other workspaces ahead, 1 of your own exports ahead\"."
  }),
  otherWorkspaces: Schema.Number.annotations({ description: "Other workspaces' renders served before this one." }),
  ownPipeline: Schema.Number.annotations({ description: "This workspace's pipeline renders served before this one." }),
  ownExports: Schema.Number.annotations({ description: "This workspace's direct exports served before this one." })
})
export type RenderWait = typeof RenderWait.Type

export const PipelineEntry = Schema.Struct({
  id: Schema.String.annotations({ description: "The job id." }),
  kind: Schema.Literal("postGroup"),
  state: JobStatus.annotations({
    description: "The job's status; RENDERING or DOWNLOADING while its render draws or stores the video."
  }),
  templateId: Schema.String,
  brand: Schema.String.annotations({ description: "The name of the channel's brand." }),
  channelName: Schema.String,
  streamId: Schema.NullOr(Schema.String).annotations({ description: "The stream the event came through, if any." }),
  source: Schema.NullOr(Schema.String).annotations({
    description: "`source/format` of the shipped feed the event came from; null for other events."
  }),
  title: Schema.NullOr(Schema.String).annotations({ description: "The post's title, else the event's postTitle." }),
  createdAt: Schema.String,
  stageSeconds: Schema.Number.annotations({ description: "Whole seconds since the job entered its status." }),
  stageSince: Schema.String.annotations({ description: "When the job entered its status." }),
  error: Schema.NullOr(Schema.String),
  renderPosition: Schema.NullOr(Schema.Number).annotations({
    description:
      "While the job's render waits for a render slot: its place in the cluster's fair order (1 = next); else null."
  }),
  renderWait: Schema.NullOr(RenderWait).annotations({
    description: "While the job's render waits for a render slot: why, as what is ahead of it; else null."
  }),
  clips: Schema.Array(PipelineClip).annotations({ description: "The job's stored video; empty before or after." })
})
export type PipelineEntry = typeof PipelineEntry.Type

export const RecentRenderEntry = Schema.Struct({
  id: Schema.String,
  state: RenderJobState,
  progress: Schema.Number,
  origin: Schema.String,
  details: Schema.String,
  templateId: Schema.String,
  createdAt: Schema.String
})

const Moment = {
  at: Schema.String.annotations({ description: "When this answer was read (ISO instant)." }),
  pollMs: Schema.Number.annotations({ description: "Suggested polling interval in milliseconds; clients honour it." })
}

export const PipelineAnswer = Schema.Struct({
  ...Moment,
  render: Schema.Struct({
    counts: RenderCounts,
    inFlight: Schema.Number.annotations({ description: "Render jobs not finished yet." }),
    recent: Schema.Array(RecentRenderEntry)
  }),
  posts: Schema.Struct({
    counts: StatusCounts.annotations({ description: "Jobs per status (every status listed)." }),
    clipCounts: Schema.Struct({ stored: Schema.Number, removed: Schema.Number }).annotations({
      description: "Clips of the jobs' renders: kept, and removed to make room."
    }),
    inFlight: Schema.Number.annotations({
      description: "Jobs in the rendering, approval, scheduled or publishing stage."
    }),
    recent: Schema.Array(PipelineEntry)
  })
})
export type PipelineAnswer = typeof PipelineAnswer.Type

export const PipelineJobAnswer = Schema.Struct({ ...Moment, job: PipelineEntry })
export type PipelineJobAnswer = typeof PipelineJobAnswer.Type

export const OverviewAnswer = Schema.Struct({
  brands: Schema.Number,
  channels: Schema.Number,
  subscriptions: Schema.Number.annotations({ description: "Enabled subscriptions of live channels." }),
  templates: Schema.Struct({
    mirrored: Schema.Number.annotations({ description: "Templates synchronised into the workspace." })
  }),
  ingest: Schema.Struct({ total: Schema.Number, last24h: Schema.Number }),
  renderJobs: Schema.Struct({ counts: RenderCounts }),
  assets: Schema.Number.annotations({ description: "Stored rendered clips plus media library files." }),
  posts: Schema.Struct({ counts: StatusCounts }),
  attention: Schema.Struct({ pendingApprovals: Schema.Number, deadDeliveries: Schema.Number })
})
export type OverviewAnswer = typeof OverviewAnswer.Type

// Every key is listed, 0 when nothing is in it, so the blocks always have one shape.
export const renderCountsOf = (
  rows: ReadonlyArray<{ readonly state: RenderJobState; readonly n: number }>
): RenderCounts => {
  const counts: Record<RenderJobState, number> = {
    PENDING: 0,
    SUBMITTED: 0,
    RENDERING: 0,
    DOWNLOADING: 0,
    STORED: 0,
    COMPLETED: 0,
    PARTIAL: 0,
    FAILED: 0,
    TIMED_OUT: 0,
    CANCELLED: 0
  }
  for (const row of rows) counts[row.state] += row.n
  return counts
}

export const statusCountsOf = (
  rows: ReadonlyArray<{ readonly status: JobStatus; readonly n: number }>
): StatusCounts => {
  const counts: Record<JobStatus, number> = {
    ACCEPTED: 0,
    AWAITING_RENDERING: 0,
    RENDERING: 0,
    DOWNLOADING: 0,
    RENDER_FAILED: 0,
    AWAITING_APPROVAL: 0,
    REJECTED: 0,
    SCHEDULED: 0,
    PUBLISHING: 0,
    PUBLISHED: 0,
    POST_FAILED: 0,
    CANCELLED: 0,
    DELETED: 0,
    DELETE_FAILED: 0,
    UPDATE_FAILED: 0
  }
  for (const row of rows) counts[row.status] += row.n
  return counts
}
