import { Schema } from "effect"
import { JobStatus } from "../../posts/JobStatus.js"
import { PostRecord } from "../../posts/PostRecord.js"

/** A post may take a receipt while its hand-over is under way or done, and after an update or delete failed. */
export const RECEIPT_STATES: ReadonlyArray<JobStatus> = ["PUBLISHED", "PUBLISHING", "UPDATE_FAILED", "DELETE_FAILED"]

export const PLATFORM_POST_ID_MAX = 200
export const PERMALINK_MAX = 2048

/** Control characters (U+0000 above all, which PostgreSQL text cannot hold) never belong in a link or an id. */
const CONTROL = /[\u0000-\u001f\u007f]/

export const isAbsoluteHttpUrl = (text: string): boolean => {
  if (CONTROL.test(text)) return false
  try {
    const url = new URL(text)
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""
  } catch {
    return false
  }
}

/** `exp` and `sig` of the signed receipt URL; checked by the service, so a missing one is 403 like a wrong one. */
export const ReceiptQuery = Schema.Struct({
  exp: Schema.optional(Schema.String),
  sig: Schema.optional(Schema.String)
})
export type ReceiptQuery = typeof ReceiptQuery.Type

export const ReceiptPath = Schema.Struct({ postId: Schema.String })

/** Where the post was published. An empty `platformPostId` (a form's blank field) keeps the one recorded before. */
export const ReceiptBody = Schema.Struct({
  permalink: Schema.String.pipe(
    Schema.maxLength(PERMALINK_MAX),
    Schema.filter((text) => isAbsoluteHttpUrl(text) || "must be an absolute http(s) URL, such as https://…")
  ).annotations({
    description: "The published post's address: an absolute http(s) URL.",
    jsonSchema: { format: "uri", maxLength: PERMALINK_MAX }
  }),
  platformPostId: Schema.optional(
    Schema.String.pipe(
      Schema.maxLength(PLATFORM_POST_ID_MAX),
      Schema.filter((text) => !CONTROL.test(text) || "may not contain control characters")
    ).annotations({
      description: "What the platform calls the post; blank keeps the one recorded.",
      jsonSchema: { maxLength: PLATFORM_POST_ID_MAX }
    })
  )
}).annotations({ identifier: "ReceiptBody" })
export type ReceiptBody = typeof ReceiptBody.Type

/** A post's platform fields after a receipt. */
export const ReceiptAnswer = Schema.Struct({
  post: PostRecord.select.pick("id", "state", "platformPostId", "permalink")
}).annotations({ identifier: "ReceiptAnswer" })
export type ReceiptAnswer = typeof ReceiptAnswer.Type

/** What the receipt page shows of a post, found by its id alone (the signature names the post). */
export const ReceiptPost = Schema.Struct({
  ...PostRecord.select.pick("id", "workspaceId", "title", "state").fields,
  channelName: Schema.String,
  ...PostRecord.select.pick("platformPostId", "permalink").fields
})
export type ReceiptPost = typeof ReceiptPost.Type
