import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { StampedByDatabase } from "../sql/Columns.js"

/** One stored credential field of a channel (deprecated store: kept as given, never read by the service). */
export class CredentialRecord extends Model.Class<CredentialRecord>("CredentialRecord")({
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  channelId: Model.GeneratedByApp(Schema.String),
  key: Schema.String,
  label: Schema.NullOr(Schema.String),
  value: Schema.String,
  secret: Schema.Boolean,
  position: Schema.Number,
  updatedAt: StampedByDatabase
}) {}

/** A stored field with the live channel it belongs to. */
export const CredentialRow = Schema.Struct({
  ...CredentialRecord.fields,
  channelName: Schema.String,
  surface: Schema.String
})
export type CredentialRow = typeof CredentialRow.Type
