import { Either, ParseResult, Schema } from "effect"
import { JobUpdateBody } from "../../publishing/actions/JobEdit.js"
import type { JobStory } from "../../publishing/views/JobStories.js"

/** What a job action did, carried to the job's page in its address (`?done=`) after the POST. */
export type Done = "cancelled" | "reposted" | "updated" | "deleted"

export interface Notice {
  readonly text: string
  readonly failed: boolean
}

/**
 * The line the page shows after an action, read from the job as it stands, so a reload says the same and a hand-made
 * address cannot claim what did not happen.
 */
export const noticeOf = (done: string | undefined, story: JobStory): Notice | undefined => {
  const asked = (event: string) => story.handOvers.some((d) => d.event === event)
  switch (done) {
    case "cancelled":
      return story.job.status === "CANCELLED"
        ? { text: "Cancelled: nothing more will be rendered or handed over for this job.", failed: false }
        : undefined
    case "reposted":
      return story.job.repostOf === null
        ? undefined
        : { text: `Reposted: this is a new job, posting job ${story.job.repostOf} again.`, failed: false }
    case "updated":
      return asked("post.update")
        ? { text: "Update queued: a signed post.update delivery asks the receiver to change the post.", failed: false }
        : undefined
    case "deleted":
      return asked("post.delete")
        ? { text: "Removal queued: a signed post.delete delivery asks the receiver to remove the post.", failed: false }
        : undefined
    default:
      return undefined
  }
}

/** The update form as typed: the post as it will read. */
export const UpdateForm = Schema.Struct({
  title: Schema.optional(Schema.String),
  caption: Schema.optional(Schema.String),
  hashtags: Schema.optional(Schema.String)
})
export type UpdateFields = typeof UpdateForm.Type

/** "#gold, markets" as ["gold", "markets"]: tags are split at spaces and commas, a leading # dropped. */
export const tagsOf = (text: string) =>
  text.split(/[\s,]+/).map((tag) => tag.replace(/^#/, "")).filter((tag) => tag !== "")

/**
 * The update body the API takes, checked by its own schema (JobUpdateBody), so a field over its limit is refused here
 * exactly as `POST /v1/jobs/{id}/update` refuses it. A field left empty keeps what the post has.
 */
export const toUpdateBody = (fields: UpdateFields) => {
  const body = {
    ...(fields.title === undefined || fields.title.trim() === "" ? {} : { title: fields.title.trim() }),
    ...(fields.caption === undefined || fields.caption.trim() === "" ? {} : { caption: fields.caption.trim() }),
    ...(fields.hashtags === undefined || fields.hashtags.trim() === "" ? {} : { hashtags: tagsOf(fields.hashtags) })
  }
  return Either.mapLeft(
    Schema.decodeUnknownEither(JobUpdateBody)(body, { errors: "all" }),
    (error) =>
      ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) =>
        `${issue.path.join(".") || "update"}: ${issue.message}`
      ).join("; ")
  )
}
