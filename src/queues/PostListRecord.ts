import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { JsonbColumn, StampedByDatabase } from "../sql/Columns.js"

export const PackageState = Schema.Literal("SCHEDULED", "FIRED", "CANCELLED")
export type PackageState = typeof PackageState.Type

/** A post list's row; written only by its `PostList` entity. */
export class QueueRecord extends Model.Class<QueueRecord>("QueueRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  name: Schema.String,
  enabled: Schema.Boolean,
  createRequestId: Model.FieldExcept("update", "json", "jsonCreate", "jsonUpdate")(Schema.String),
  deleteRequestId: Model.FieldExcept("insert", "json", "jsonCreate", "jsonUpdate")(Schema.NullOr(Schema.String)),
  removedFromChannels: Model.FieldExcept("insert", "json", "jsonCreate", "jsonUpdate")(Schema.NullOr(Schema.Number)),
  createdAt: StampedByDatabase,
  updatedAt: StampedByDatabase,
  deletedAt: Model.Generated(Schema.NullOr(Schema.DateFromSelf))
}) {}

/** A scheduled post (package) of a list; written only by its list's entity. */
export class PackageRecord extends Model.Class<PackageRecord>("PackageRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  queueId: Model.GeneratedByApp(Schema.String),
  title: Schema.String,
  templateId: Schema.String,
  templateVariant: Schema.String,
  /** Null follows the newest build of the variant (`latest`). */
  templateVersion: Schema.NullOr(Schema.String),
  data: JsonbColumn(Schema.Unknown),
  scheduledFor: Schema.DateFromSelf,
  state: PackageState,
  armed: Schema.Number,
  armedBy: Schema.NullOr(Schema.String),
  firedAt: Schema.NullOr(Schema.DateFromSelf),
  ingestEventId: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  createRequestId: Model.FieldExcept("update", "json", "jsonCreate", "jsonUpdate")(Schema.String),
  createdAt: StampedByDatabase,
  updatedAt: StampedByDatabase
}) {}

/** What a package is made of once every rule is applied: what create stores and a change rewrites. */
export const PackageContent = Schema.Struct({
  title: Schema.String,
  templateId: Schema.String,
  templateVariant: Schema.String,
  templateVersion: Schema.NullOr(Schema.String),
  data: Schema.Unknown,
  /** Epoch milliseconds. */
  scheduledFor: Schema.Number
})
export type PackageContent = typeof PackageContent.Type
