import { Schema } from "effect"

/** What a hand-over tells the receiver about a post: published, changed or to be removed. */
export const DeliveryEvent = Schema.Literal("post.publish", "post.update", "post.delete")
export type DeliveryEvent = typeof DeliveryEvent.Type

/** What a `post.update` changes (SPEC "Job update body", checked by the route); applied to the post once delivered. */
export const PostChanges = Schema.Struct({
  description: Schema.optional(Schema.String),
  caption: Schema.optional(Schema.String),
  hashtags: Schema.optional(Schema.Array(Schema.String)),
  title: Schema.optional(Schema.String),
  disclaimer: Schema.optional(Schema.String),
  link: Schema.optional(Schema.Struct({ url: Schema.String, label: Schema.optional(Schema.String) })),
  mediaFileId: Schema.optional(Schema.String)
})
export type PostChanges = typeof PostChanges.Type
