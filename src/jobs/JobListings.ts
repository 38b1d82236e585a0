/** The shapes the job and post logs read: listed rows, and the filters narrowing them. */
import { Schema } from "effect"
import { Origin } from "../domain/Origin.js"
import { WorkspaceId } from "../domain/Principal.js"

const Timestamp = Schema.DateFromSelf
const Text = Schema.NullOr(Schema.String)

/** A job as `/v1/jobs` lists it: the job, its event, channel, brand, render, post and approval. */
export const ListedJob = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  renderState: Text,
  renderProgress: Schema.NullOr(Schema.Number),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  origin: Origin,
  details: Schema.String,
  postTitle: Text,
  channelId: Schema.String,
  channelName: Schema.String,
  channelApproval: Schema.String,
  surface: Schema.String,
  brandId: Schema.String,
  brandName: Schema.String,
  ratio: Schema.String,
  locale: Schema.String,
  postId: Text,
  caption: Text,
  title: Text,
  publishedAt: Schema.NullOr(Timestamp),
  permalink: Text,
  scheduledFor: Schema.NullOr(Timestamp),
  error: Text,
  templateId: Schema.String,
  renderTemplateName: Text,
  templateVariant: Text,
  templateVersion: Text,
  renderJobId: Text,
  approvalId: Text,
  approvalState: Text,
  clipId: Text
})
export type ListedJob = typeof ListedJob.Type

/** A post as `/v1/posts` lists it, with its job's event, channel and brand. */
export const ListedPost = Schema.Struct({
  id: Schema.String,
  jobId: Schema.String,
  origin: Origin,
  details: Schema.String,
  postTitle: Text,
  state: Schema.String,
  platform: Schema.String,
  surface: Schema.String,
  channelName: Schema.String,
  brandName: Schema.String,
  locale: Schema.String,
  ratio: Schema.String,
  title: Schema.String,
  caption: Schema.String,
  hashtags: Schema.Array(Schema.String),
  createdAt: Timestamp,
  scheduledFor: Timestamp,
  publishedAt: Schema.NullOr(Timestamp),
  platformPostId: Text,
  permalink: Text,
  failureReason: Text,
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
export const PostFilterFields = { workspaceId: WorkspaceId, channelId: Optional, q: Optional, state: Optional, platform: Optional }
export const Paging = { limit: Schema.Number, offset: Schema.Number }

/** `q` is the caller's text, not a pattern: its `%`, `_` and `\` match themselves. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, "\\$&")}%`

