import { Schema } from "effect"
import { PositiveIntParam } from "../../http/Paging.js"
import { DeliveryEvent, DeliveryState, DeliveryVia } from "../handover/DeliveryRecord.js"

export const MAX_DELIVERIES = 200
export const DEFAULT_DELIVERIES = 40

/** `GET /v1/deliveries` query: not paged, only the newest `limit`. */
export const DeliveriesParams = Schema.Struct({
  limit: Schema.optionalWith(PositiveIntParam.pipe(Schema.lessThanOrEqualTo(MAX_DELIVERIES)), {
    default: () => DEFAULT_DELIVERIES
  }).annotations({
    description: `How many deliveries to list, newest first: 1 to ${MAX_DELIVERIES}; default ${DEFAULT_DELIVERIES}.`
  })
})
export type DeliveriesParams = typeof DeliveriesParams.Type

const Instant = Schema.String.annotations({ description: "ISO 8601 instant." })

/** SPEC "Delivery row", plus how it went out and every post it carried. */
export const DeliveryRow = Schema.Struct({
  id: Schema.String.annotations({ description: "The delivery id; a webhook's `webhook-id`." }),
  event: DeliveryEvent,
  state: DeliveryState.annotations({
    description:
      "PENDING (not tried yet), RETRYING (an attempt failed, another is timed), DELIVERED, DEAD (every attempt failed)."
  }),
  attempt: Schema.Number.annotations({ description: "Attempts made so far, redeliveries included." }),
  nextAttemptAt: Schema.NullOr(Instant).annotations({ description: "When a RETRYING delivery is tried next." }),
  lastStatusCode: Schema.NullOr(Schema.Number).annotations({
    description: "HTTP status (webhook) or SMTP reply code (email)."
  }),
  lastError: Schema.NullOr(Schema.String),
  deliveredAt: Schema.NullOr(Instant),
  createdAt: Instant,
  postId: Schema.NullOr(Schema.String).annotations({ description: "The first post carried." }),
  channelName: Schema.NullOr(Schema.String).annotations({ description: "The first post's channel." }),
  platform: Schema.NullOr(Schema.String).annotations({ description: "The first post's platform." }),
  via: DeliveryVia,
  postIds: Schema.Array(Schema.String).annotations({ description: "Every post carried, in the order sent." }),
  channelNames: Schema.Array(Schema.String).annotations({
    description: "The channel of each post in `postIds`, in the same order."
  })
}).annotations({ identifier: "DeliveryRow" })
export type DeliveryRow = typeof DeliveryRow.Type

export const DeliveryAttempt = Schema.Struct({
  attempt: Schema.Number,
  redelivery: Schema.Boolean.annotations({ description: "Made by `POST /v1/deliveries/{id}/redeliver`." }),
  startedAt: Instant,
  durationMs: Schema.Number,
  statusCode: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  answer: Schema.NullOr(Schema.String).annotations({ description: "The start of what came back." }),
  headers: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String })).annotations({
    description: "Webhook: the signed headers this attempt went out with. Each automatic attempt is signed as it is " +
      "sent (`webhook-timestamp` is its own time; `webhook-id` and the body are those of every attempt); a " +
      "redelivery sends the delivery's `headers`. Null for email."
  })
}).annotations({ identifier: "DeliveryAttempt" })
export type DeliveryAttempt = typeof DeliveryAttempt.Type

/** One delivery whole: the row, what it carried, and what came back on every attempt. */
export const Delivery = Schema.Struct({
  ...DeliveryRow.fields,
  url: Schema.NullOr(Schema.String).annotations({
    description: "The workspace's webhook address for a webhook delivery; null for email."
  }),
  recipients: Schema.Array(Schema.String).annotations({ description: "Email only: who it goes to." }),
  headers: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description:
      "The headers made with the delivery (for a webhook, the Standard Webhooks headers signed when it was " +
      "made): a redelivery sends exactly these; each automatic attempt's own are in `attempts[].headers`."
  }),
  body: Schema.Unknown.annotations({
    description: "Webhook: the body parsed as JSON. Email: the message text (RFC 5322), at most 64 KB. Null before " +
      "an email is composed. Receipt links (`/v1/receipts/…`, which let their holder set a post's platformPostId " +
      "and permalink) are shown only to a caller holding `posts:write`; to others each one ends in `?hidden` " +
      "instead of its signature, and an email's text parts are shown decoded."
  }),
  bodyBytes: Schema.NullOr(Schema.String).annotations({
    description: "Webhook: the exact body text that was signed and sent (receipt links hidden as in `body` from a " +
      "caller without `posts:write`); null for email."
  }),
  bodyTruncated: Schema.Boolean.annotations({ description: "True when the email text in `body` was cut at 64 KB." }),
  attempts: Schema.Array(DeliveryAttempt).annotations({ description: "Every attempt, in order." })
}).annotations({ identifier: "Delivery" })
export type Delivery = typeof Delivery.Type

export const DeliveryList = Schema.Struct({ deliveries: Schema.Array(DeliveryRow) }).annotations({
  identifier: "DeliveryList"
})

export const DeliveryAnswer = Schema.Struct({ delivery: Delivery }).annotations({ identifier: "DeliveryAnswer" })
