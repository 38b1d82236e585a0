import { Schema } from "effect"

const text = (max: number) => Schema.String.pipe(Schema.maxLength(max, { message: () => `at most ${max} characters` }))

/**
 * `POST /v1/jobs/{id}/update` (SPEC "Job update body"): the post as it will read. Text over a limit is refused, never
 * cut; an empty link url removes the link, an absent field keeps what is there.
 */
export const JobUpdateBody = Schema.Struct({
  description: Schema.optional(text(5000)),
  caption: Schema.optional(text(4000)),
  hashtags: Schema.optional(Schema.Array(text(60)).pipe(Schema.maxItems(60, { message: () => "at most 60 tags" }))),
  title: Schema.optional(text(400)),
  disclaimer: Schema.optional(text(300)),
  link: Schema.optional(Schema.Struct({ url: Schema.String, label: Schema.optional(Schema.String) })),
  mediaFileId: Schema.optional(Schema.String)
}).annotations({ parseOptions: { onExcessProperty: "error", errors: "all" } })
export type JobUpdateBody = typeof JobUpdateBody.Type
