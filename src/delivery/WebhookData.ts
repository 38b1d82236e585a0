import { Schema } from "effect"
import { PostChanges } from "../posts/PostChanges.js"

const SignedLink = { url: Schema.String, expiresAt: Schema.String }

/**
 * One post as a hand-over carries it: everything a receiver needs to publish it without calling back (CONTRACT
 * "Webhook wire format"; the same facts go into the email).
 */
export const PostOut = Schema.Struct({
  id: Schema.String,
  postGroupId: Schema.String,
  channel: Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    platform: Schema.String,
    surface: Schema.String,
    surfaceLabel: Schema.String,
    posting: Schema.Record({ key: Schema.String, value: Schema.Boolean })
  }),
  locale: Schema.String,
  ratio: Schema.String,
  title: Schema.String,
  /** The caption the channel's platform takes (one of the three below). */
  caption: Schema.String,
  captions: Schema.Struct({ short: Schema.String, medium: Schema.String, long: Schema.String }),
  hashtags: Schema.Array(Schema.String),
  scheduledFor: Schema.String,
  origin: Schema.String,
  postTitle: Schema.NullOr(Schema.String),
  /** The video, as a signed link that holds until `expiresAt`. */
  assets: Schema.Array(
    Schema.Struct({ assetId: Schema.String, kind: Schema.Literal("video"), mimeType: Schema.String, ...SignedLink })
  ),
  /** Where the receiver (or the email's reader) reports the published post's id and link. */
  receipt: Schema.Struct(SignedLink),
  /** Set on `post.update` and `post.delete`: what the platform knows the post by. */
  platformPostId: Schema.NullOr(Schema.String),
  permalink: Schema.NullOr(Schema.String)
}).annotations({ identifier: "PostOut" })
export type PostOut = typeof PostOut.Type

/** The `data` of every delivery's body. */
export const DeliveryData = Schema.Struct({
  accountId: Schema.String,
  ingestEventId: Schema.NullOr(Schema.String),
  /** The sender's `eventId` of the event the posts came from. */
  eventId: Schema.NullOr(Schema.String),
  posts: Schema.Array(PostOut),
  /** `post.update` only: what changes (absent fields stay as they are). */
  changes: Schema.optional(PostChanges),
  /** `post.update` with `mediaFileId`: the file to post instead of the video, as a signed link. */
  media: Schema.optional(Schema.Struct({ mediaFileId: Schema.String, ...SignedLink }))
}).annotations({ identifier: "DeliveryData" })
export type DeliveryData = typeof DeliveryData.Type

/** What a receiver may answer to fill the posts' platform fields (CONTRACT "Readings"). */
export const ReceiverAnswer = Schema.Struct({
  posts: Schema.Array(Schema.Struct({
    id: Schema.String,
    platformPostId: Schema.optional(Schema.NullOr(Schema.String)),
    permalink: Schema.optional(Schema.NullOr(Schema.String))
  }))
})
export type ReceiverAnswer = typeof ReceiverAnswer.Type
