import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { JsonbColumn, StampedByDatabase } from "../sql/Columns.js"
import { Approval, Posting } from "./Channel.js"

/** A channel's row. A deleted channel keeps it, renamed with ' (removed)', so history can still name it. */
export class ChannelRecord extends Model.Class<ChannelRecord>("ChannelRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  name: Schema.String,
  surface: Schema.String,
  ratio: Schema.String,
  locale: Schema.String,
  brandId: Schema.String,
  enabled: Schema.Boolean,
  approval: Approval,
  deliverByEmail: Schema.Boolean,
  deliverByWebhook: Schema.Boolean,
  posting: JsonbColumn(Posting),
  syndicates: Schema.Boolean,
  syndicationToken: Schema.NullOr(Schema.String),
  /** The request that created the row: a re-run of that request is the same create, not a conflict. */
  createRequestId: Model.FieldExcept("update", "json", "jsonCreate", "jsonUpdate")(Schema.NullOr(Schema.String)),
  createdAt: StampedByDatabase,
  updatedAt: StampedByDatabase,
  deletedAt: Model.Generated(Schema.NullOr(Schema.DateFromSelf))
}) {}

/** What a channel's configuration is once every default is filled in: what create stores and update rewrites. */
export const ChannelConfig = ChannelRecord.json.pick(
  "name",
  "surface",
  "ratio",
  "locale",
  "brandId",
  "enabled",
  "approval",
  "deliverByEmail",
  "deliverByWebhook",
  "posting",
  "syndicates",
  "syndicationToken"
)
export type ChannelConfig = typeof ChannelConfig.Type

/** A live channel's row with the brand it wears, as the views read it. */
export const ChannelRow = Schema.Struct({
  ...ChannelRecord.fields,
  brandName: Schema.String,
  brandEnabled: Schema.Boolean
})
export type ChannelRow = typeof ChannelRow.Type
