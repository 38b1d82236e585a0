/** The shapes the job and post logs read: listed rows, and the filters narrowing them. */
import { Schema } from "effect"
import { Origin } from "../../domain/Origin.js"
import { WorkspaceId } from "../../domain/Principal.js"
import { IngestEventRecord } from "../../ingest/IngestEventRecord.js"
import { PostRecord } from "../../posts/PostRecord.js"
import { JobRecord } from "../states/JobRecord.js"

const Timestamp = Schema.DateFromSelf
const Text = Schema.NullOr(Schema.String)

/** The event's columns both logs show. */
const EventColumns = IngestEventRecord.select.pick("origin", "details", "postTitle")

/**
 * A job as `/v1/jobs` lists it: the job, its event, channel, brand, render, post and approval. The status is read as
 * text (it may be a derived one, RENDERING or DOWNLOADING), the post's columns may be null (no post yet).
 */
export const ListedJob = Schema.Struct({
  ...JobRecord.select.pick(
    "id",
    "createdAt",
    "updatedAt",
    "channelId",
    "ratio",
    "locale",
    "scheduledFor",
    "error",
    "templateId",
    "templateVariant",
    "templateVersion",
    "renderJobId"
  ).fields,
  ...EventColumns.fields,
  status: Schema.String,
  renderState: Text,
  renderProgress: Schema.NullOr(Schema.Number),
  channelName: Schema.String,
  channelApproval: Schema.String,
  surface: Schema.String,
  brandId: Schema.String,
  brandName: Schema.String,
  postId: Text,
  caption: Text,
  title: Text,
  publishedAt: Schema.NullOr(Timestamp),
  permalink: Text,
  renderTemplateName: Text,
  approvalId: Text,
  approvalState: Text,
  approvalDecidedBy: Text,
  clipId: Text
})
export type ListedJob = typeof ListedJob.Type

/** A post as `/v1/posts` lists it, with its job's event, channel and brand. */
export const ListedPost = Schema.Struct({
  ...PostRecord.select.pick(
    "id",
    "jobId",
    "platform",
    "surface",
    "locale",
    "ratio",
    "title",
    "caption",
    "hashtags",
    "createdAt",
    "scheduledFor",
    "publishedAt",
    "platformPostId",
    "permalink",
    "failureReason"
  ).fields,
  ...EventColumns.fields,
  state: Schema.String,
  channelName: Schema.String,
  brandName: Schema.String,
  clipId: Text
})
export type ListedPost = typeof ListedPost.Type

/** What narrows the set that facets count over. */
export interface JobScope {
  readonly channelId?: string | undefined
  readonly brandId?: string | undefined
  readonly since?: string | undefined
  readonly until?: string | undefined
  readonly q?: string | undefined
}

/** The filters on top of the scope; `statuses` and `surfaces` come from the stage and platform asked for. */
export interface JobFilter extends JobScope {
  readonly statuses?: ReadonlyArray<string> | undefined
  readonly surfaces?: ReadonlyArray<string> | undefined
  readonly origin?: Origin | undefined
  readonly approval?: string | undefined
}

export interface PostFilter {
  readonly channelId?: string | undefined
  readonly q?: string | undefined
  readonly state?: string | undefined
  readonly platform?: string | undefined
}

const Optional = Schema.optional(Schema.String)
export const JobFilterFields = {
  workspaceId: WorkspaceId,
  channelId: Optional,
  brandId: Optional,
  since: Optional,
  until: Optional,
  q: Optional,
  statuses: Schema.optional(Schema.Array(Schema.String)),
  surfaces: Schema.optional(Schema.Array(Schema.String)),
  origin: Schema.optional(Origin),
  approval: Optional
}
export const PostFilterFields = {
  workspaceId: WorkspaceId,
  channelId: Optional,
  q: Optional,
  state: Optional,
  platform: Optional
}
export const Paging = { limit: Schema.Number, offset: Schema.Number }

/** `q` is the caller's text, not a pattern: its `%`, `_` and `\` match themselves. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, "\\$&")}%`
