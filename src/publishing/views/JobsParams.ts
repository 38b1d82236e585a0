import { Schema } from "effect"
import { surfaces } from "../../channels/Surfaces.js"
import { InstantText } from "../../domain/Instants.js"
import { Origin } from "../../domain/Origin.js"
import { pagingParams } from "../../http/Paging.js"
import { JobStage, JobStatus } from "../../posts/JobStatus.js"

// The query parameters of `GET /v1/jobs` and `GET /v1/posts`.

/** Every platform a channel's surface posts to, in the surfaces' order. */
export const platforms = [...new Set(surfaces.map((s) => s.platform))] as [string, ...Array<string>]
export const Platform = Schema.Literal(...platforms)

export const ApprovalFilter = Schema.Literal("pending", "approved", "rejected", "none")
export type ApprovalFilter = typeof ApprovalFilter.Type

const Id = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))
const Search = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))

const paging = pagingParams(25)

/** `GET /v1/jobs` query. */
export const JobsParams = Schema.Struct({
  stage: Schema.optional(JobStage).annotations({ description: "Only jobs whose status is in this stage." }),
  channelId: Schema.optional(Id).annotations({ description: "Only jobs of this channel." }),
  brandId: Schema.optional(Id).annotations({ description: "Only jobs of channels wearing this brand." }),
  platform: Schema.optional(Platform).annotations({ description: "Only jobs whose channel posts to this platform." }),
  origin: Schema.optional(Origin).annotations({ description: "Only jobs of this origin." }),
  approval: Schema.optional(ApprovalFilter).annotations({
    description: "Only jobs whose approval is in this state; `none`: jobs without an approval."
  }),
  since: Schema.optional(InstantText).annotations({
    description: "Only jobs created or updated at or after this instant."
  }),
  until: Schema.optional(InstantText).annotations({
    description: "Only jobs created or updated at or before this instant."
  }),
  q: Schema.optional(Search).annotations({
    description: "1 to 200 characters, matched case-insensitively inside the event's `details` and `postTitle`, " +
      "the channel's name or the job's id."
  }),
  ...paging
})
export type JobsParams = typeof JobsParams.Type

/** `GET /v1/posts` query. */
export const PostsParams = Schema.Struct({
  state: Schema.optional(JobStatus).annotations({ description: "Only posts in this state." }),
  platform: Schema.optional(Platform).annotations({ description: "Only posts to this platform." }),
  channelId: Schema.optional(Id).annotations({ description: "Only posts of this channel." }),
  q: Schema.optional(Search).annotations({
    description: "1 to 200 characters, matched case-insensitively inside the event's `details` and `postTitle`, " +
      "the channel's name, the post's title, or the post's or job's id."
  }),
  ...paging
})
export type PostsParams = typeof PostsParams.Type
