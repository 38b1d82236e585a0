import { Schema } from "effect"
import { Problem } from "./IngestEventRecord.js"

export const Output = Schema.Struct({ ratio: Schema.String, locale: Schema.String })

/** A channel the event reached: the job (post group) created for it and the outputs it will draw. */
export const Matched = Schema.Struct({
  channelId: Schema.String,
  channelName: Schema.String,
  subscriptionId: Schema.String,
  templateId: Schema.String,
  templateVersion: Schema.NullOr(Schema.String),
  outputs: Schema.Array(Output),
  postGroupId: Schema.String
})
export type Matched = typeof Matched.Type

/** A channel the event would reach (dry run: no job yet). */
export const WouldMatch = Matched.pipe(Schema.omit("postGroupId", "templateId", "templateVersion"))
export type WouldMatch = typeof WouldMatch.Type

const sendFields = {
  ingestEventId: Schema.String,
  requestId: Schema.String,
  streamId: Schema.String,
  matched: Schema.Array(Matched),
  warnings: Schema.Array(Problem),
  normalized: Schema.Unknown
}

/** `POST /v1/stream` when the event landed now (202). */
export const StreamSendAnswer = Schema.Struct({
  ...sendFields,
  status: Schema.Literal("accepted", "no_match", "unmapped"),
  idempotent: Schema.Literal(false),
  mappingErrors: Schema.optional(Schema.Array(Problem))
}).annotations({ identifier: "StreamSendAnswer" })
export type StreamSendAnswer = typeof StreamSendAnswer.Type

/** `POST /v1/stream` when the eventId had landed before with this body (200): the original outcome stands. */
export const StreamDuplicateAnswer = Schema.Struct({
  ...sendFields,
  status: Schema.Literal("duplicate"),
  idempotent: Schema.Literal(true)
}).annotations({ identifier: "StreamDuplicateAnswer" })
export type StreamDuplicateAnswer = typeof StreamDuplicateAnswer.Type

export const StreamValidateAnswer = Schema.Struct({
  requestId: Schema.String,
  streamId: Schema.String,
  templateId: Schema.String,
  templateVersion: Schema.String,
  valid: Schema.Boolean,
  document: Schema.Unknown,
  warnings: Schema.Array(Problem),
  errors: Schema.Array(Problem),
  wouldMatch: Schema.Array(WouldMatch)
}).annotations({ identifier: "StreamValidateAnswer" })

/** `POST /v1/ingest/{source}/{format}`: always 202, a duplicate too. */
export const FeedSendAnswer = Schema.Struct({
  ingestEventId: Schema.String,
  requestId: Schema.String,
  status: Schema.Literal("accepted", "no_match", "stale", "duplicate"),
  idempotent: Schema.Boolean,
  matched: Schema.Array(Matched),
  warnings: Schema.Array(Problem),
  normalized: Schema.Unknown
}).annotations({ identifier: "FeedSendAnswer" })
export type FeedSendAnswer = typeof FeedSendAnswer.Type

export const FeedValidateAnswer = Schema.Struct({
  requestId: Schema.String,
  valid: Schema.Boolean,
  normalized: Schema.Unknown,
  wouldMatch: Schema.Array(WouldMatch),
  warnings: Schema.Array(Problem),
  stale: Schema.Boolean
}).annotations({ identifier: "FeedValidateAnswer" })
