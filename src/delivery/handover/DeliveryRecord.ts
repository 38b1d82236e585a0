import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { DeliveryEvent, PostChanges } from "../../posts/PostChanges.js"
import { JsonbColumn, StampedByDatabase } from "../../sql/Columns.js"

// The post vocabulary is shared with publishing (src/posts/); re-exported for the files of hand-over.
export { DeliveryEvent, PostChanges }

export const DeliveryVia = Schema.Literal("webhook", "email")
export type DeliveryVia = typeof DeliveryVia.Type

/** PENDING (not tried yet), RETRYING (failed, another attempt is timed), DELIVERED, DEAD (every attempt failed). */
export const DeliveryState = Schema.Literal("PENDING", "RETRYING", "DELIVERED", "DEAD")
export type DeliveryState = typeof DeliveryState.Type

/**
 * One hand-over: a webhook call or an email, with the bytes it sends on every attempt (the webhook body and its
 * signed headers, or the whole email message) and where its attempts stand. Written by its HandOver entity.
 */
export class DeliveryRecord extends Model.Class<DeliveryRecord>("DeliveryRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  owner: Schema.String,
  requestKey: Schema.NullOr(Schema.String),
  via: DeliveryVia,
  event: DeliveryEvent,
  ingestEventId: Schema.NullOr(Schema.String),
  state: DeliveryState,
  attempt: Schema.Number,
  nextAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  lastStatusCode: Schema.NullOr(Schema.Number),
  lastError: Schema.NullOr(Schema.String),
  deliveredAt: Schema.NullOr(Schema.DateFromSelf),
  /** The webhook body, or the email message (RFC 5322) once composed; null for an email not composed yet. */
  body: Schema.NullOr(Schema.Uint8ArrayFromSelf),
  headers: JsonbColumn(Schema.Record({ key: Schema.String, value: Schema.String })),
  /** Email only: who it goes to. */
  recipients: JsonbColumn(Schema.Array(Schema.String)),
  changes: JsonbColumn(Schema.NullOr(PostChanges)),
  createdAt: StampedByDatabase,
  updatedAt: StampedByDatabase
}) {}

/** One attempt of a delivery (redeliveries included), recorded with the delivery's new state. */
export class DeliveryAttemptRecord extends Model.Class<DeliveryAttemptRecord>("DeliveryAttemptRecord")({
  deliveryId: Schema.String,
  attempt: Schema.Number,
  redelivery: Schema.Boolean,
  startedAt: Schema.DateFromSelf,
  durationMs: Schema.Number,
  statusCode: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  answer: Schema.NullOr(Schema.String),
  /** The headers a webhook attempt went out with (each automatic attempt is signed as it is sent); null for email. */
  headers: JsonbColumn(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String })))
}) {}

/** What sending a delivery reads of it: a stored row, or one just made. */
export type Sendable = Pick<
  DeliveryRecord,
  "id" | "workspaceId" | "owner" | "via" | "event" | "attempt" | "state" | "body" | "headers" | "recipients" | "changes"
>
