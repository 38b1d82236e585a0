import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { JsonbColumn, StampedByDatabase } from "../../sql/Columns.js"

export const DeliveryVia = Schema.Literal("webhook", "email")
export type DeliveryVia = typeof DeliveryVia.Type

export const DeliveryEvent = Schema.Literal("post.publish", "post.update", "post.delete")
export type DeliveryEvent = typeof DeliveryEvent.Type

/** PENDING (not tried yet), RETRYING (failed, another attempt is timed), DELIVERED, DEAD (every attempt failed). */
export const DeliveryState = Schema.Literal("PENDING", "RETRYING", "DELIVERED", "DEAD")
export type DeliveryState = typeof DeliveryState.Type

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

/** What sending a delivery reads of it: a stored row, or one just made. */
export type Sendable = Pick<
  DeliveryRecord,
  "id" | "workspaceId" | "owner" | "via" | "event" | "attempt" | "state" | "body" | "headers" | "recipients" | "changes"
>
