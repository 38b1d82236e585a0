import { Option, Schema } from "effect"
import { surfaceOf } from "../../channels/Surfaces.js"
import type { JobStatus } from "../../posts/JobStatus.js"
import { deletableFrom, repostableFrom, updatableFrom } from "../../posts/JobStatusSteps.js"
import { findTemplate } from "../../templates/TemplateRegistry.js"
import { ListedJob, ListedPost } from "./JobListings.js"

const Text = Schema.NullOr(Schema.String)
const Clip = Schema.Struct({ id: Schema.String, mimeType: Schema.String, url: Schema.String })
export type Clip = typeof Clip.Type

/** SPEC "Job (one row of /v1/jobs)". */
// The columns shown as listed are the listing's (ListedJob, ListedPost); times are ISO text here.
export const JobRow = Schema.Struct({
  ...ListedJob.pick("id", "status").fields,
  progress: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  ...ListedJob.pick("origin", "details", "postTitle", "channelId", "channelName", "brandName").fields,
  platform: Schema.String,
  surfaceLabel: Schema.String,
  ...ListedJob.pick("ratio", "locale", "caption", "title").fields,
  publishedAt: Text,
  permalink: ListedJob.fields.permalink,
  scheduledFor: Text,
  error: ListedJob.fields.error,
  templateName: Schema.String,
  templateVariant: ListedJob.fields.templateVariant,
  templateVersion: Text.annotations({ description: "The pinned version; null follows the newest build." }),
  renderJobId: ListedJob.fields.renderJobId,
  updatable: Schema.Boolean,
  repostable: Schema.Boolean,
  deletable: Schema.Boolean,
  priority: Schema.Boolean,
  approvalId: Text,
  approval: Schema.Struct({
    required: Schema.Boolean,
    state: Schema.NullOr(Schema.Literal("PENDING", "APPROVED", "REJECTED")),
    login: Text,
    name: Text
  }),
  clip: Schema.NullOr(Clip)
})
export type JobRow = typeof JobRow.Type

const Counts = Schema.Record({ key: Schema.String, value: Schema.Number })
const Labels = Schema.Record({ key: Schema.String, value: Schema.String })

export const JobPage = Schema.Struct({
  jobs: Schema.Array(JobRow),
  total: Schema.Number,
  all: Schema.Number,
  page: Schema.Number,
  perPage: Schema.Number,
  stages: Counts,
  unstaged: Schema.Number,
  facets: Schema.Struct({ stage: Counts, approval: Counts, platform: Counts, origin: Counts }),
  labels: Schema.Struct({ channelId: Labels, brandId: Labels })
})
export type JobPage = typeof JobPage.Type

const Asset = Schema.Struct({ assetId: Schema.String, url: Schema.String, expiresAt: Schema.String })
export type Asset = typeof Asset.Type

/** SPEC "Post (one row of /v1/posts)". */
export const PostRow = Schema.Struct({
  id: Schema.String,
  postGroupId: Schema.String,
  ...ListedPost.pick("origin", "details", "postTitle", "state", "platform").fields,
  surfaceLabel: Schema.String,
  ...ListedPost.pick("channelName", "brandName", "locale", "ratio", "title", "caption", "hashtags").fields,
  createdAt: Schema.String,
  scheduledFor: Schema.String,
  publishedAt: Text,
  ...ListedPost.pick("platformPostId", "permalink", "failureReason").fields,
  connected: Schema.Boolean,
  assets: Schema.Array(Asset),
  clipStored: Schema.Boolean
})
export type PostRow = typeof PostRow.Type

export const PostPage = Schema.Struct({
  posts: Schema.Array(PostRow),
  total: Schema.Number,
  all: Schema.Number,
  page: Schema.Number,
  perPage: Schema.Number,
  facets: Schema.Struct({ state: Counts, platform: Counts })
})
export type PostPage = typeof PostPage.Type

const iso = (date: Date | null) => date?.toISOString() ?? null

const surfaceView = (surface: string) => {
  const known = surfaceOf(surface)
  return { platform: known?.platform ?? surface, surfaceLabel: known?.label ?? surface }
}

/** 1 once the video is made (a post exists or the render completed), the render's own progress before. */
const progressOf = (row: ListedJob) => {
  if (row.postId !== null || row.renderState === "COMPLETED") return 1
  return Math.min(1, Math.max(0, row.renderProgress ?? 0))
}

const approvalStateOf = (state: string | null) =>
  state === "PENDING" || state === "APPROVED" || state === "REJECTED" ? state : null

export const jobView = (row: ListedJob, clip: Clip | null): JobRow => {
  return {
    id: row.id,
    status: row.status,
    progress: progressOf(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    origin: row.origin,
    details: row.details,
    postTitle: row.postTitle,
    channelId: row.channelId,
    channelName: row.channelName,
    brandName: row.brandName,
    ...surfaceView(row.surface),
    ratio: row.ratio,
    locale: row.locale,
    caption: row.caption,
    title: row.title,
    publishedAt: iso(row.publishedAt),
    permalink: row.permalink,
    scheduledFor: iso(row.scheduledFor),
    error: row.error,
    templateName: Option.match(findTemplate(row.templateId), {
      onNone: () => row.renderTemplateName ?? row.templateId,
      onSome: (template) => template.name
    }),
    templateVariant: row.templateVariant,
    templateVersion: row.templateVersion,
    renderJobId: row.renderJobId,
    updatable: updatableFrom.includes(row.status as JobStatus),
    repostable: repostableFrom.includes(row.status as JobStatus),
    deletable: deletableFrom.includes(row.status as JobStatus),
    priority: false,
    approvalId: row.approvalId,
    approval: {
      required: row.channelApproval === "PER_POST",
      state: approvalStateOf(row.approvalState),
      login: row.approvalDecidedBy,
      name: null
    },
    clip
  }
}

export const postView = (row: ListedPost, asset: Asset | null): PostRow => ({
  id: row.id,
  postGroupId: row.jobId,
  origin: row.origin,
  details: row.details,
  postTitle: row.postTitle,
  state: row.state,
  platform: row.platform,
  surfaceLabel: surfaceView(row.surface).surfaceLabel,
  channelName: row.channelName,
  brandName: row.brandName,
  locale: row.locale,
  ratio: row.ratio,
  title: row.title,
  caption: row.caption,
  hashtags: row.hashtags,
  createdAt: row.createdAt.toISOString(),
  scheduledFor: row.scheduledFor.toISOString(),
  publishedAt: iso(row.publishedAt),
  platformPostId: row.platformPostId,
  permalink: row.permalink,
  failureReason: row.failureReason,
  // Hand-over is by webhook or email: no platform connection is needed.
  connected: true,
  assets: asset === null ? [] : [asset],
  clipStored: row.clipId !== null
})
