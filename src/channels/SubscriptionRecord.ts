import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { StampedByDatabase } from "../sql/Columns.js"
import { SubscriptionKind } from "./Subscription.js"

/** One input a channel publishes; written only by the channel's entity. */
export class SubscriptionRecord extends Model.Class<SubscriptionRecord>("SubscriptionRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  channelId: Model.GeneratedByApp(Schema.String),
  kind: SubscriptionKind,
  inputKey: Schema.String,
  sourceSlug: Schema.NullOr(Schema.String),
  formatSlug: Schema.NullOr(Schema.String),
  feedId: Schema.NullOr(Schema.String),
  streamId: Schema.NullOr(Schema.String),
  queueId: Schema.NullOr(Schema.String),
  /** The post list's name as it is now (read with the row; a list deleted meanwhile has none). */
  queueName: Model.FieldExcept("insert", "update", "jsonCreate", "jsonUpdate")(Schema.NullOr(Schema.String)),
  templateId: Schema.NullOr(Schema.String),
  templateVariant: Schema.NullOr(Schema.String),
  templateVersion: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  createRequestId: Model.FieldExcept("update", "json", "jsonCreate", "jsonUpdate")(Schema.NullOr(Schema.String)),
  createdAt: StampedByDatabase,
  updatedAt: StampedByDatabase
}) {}

/** A checked new subscription, as the service hands it to the entity. */
export const NewSubscription = SubscriptionRecord.select.pick(
  "id",
  "kind",
  "inputKey",
  "sourceSlug",
  "formatSlug",
  "feedId",
  "streamId",
  "queueId",
  "templateId",
  "templateVariant",
  "templateVersion"
)
export type NewSubscription = typeof NewSubscription.Type

/** The pins and switch after a checked change. */
export const SubscriptionState = SubscriptionRecord.select.pick("templateVariant", "templateVersion", "enabled")
export type SubscriptionState = typeof SubscriptionState.Type
