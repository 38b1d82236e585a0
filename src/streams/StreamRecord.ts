import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { JsonbColumn, StampedByDatabase } from "../sql/Columns.js"
import { FieldMap } from "./Stream.js"

/** A stream's row. Ids are global across workspaces; a deleted stream keeps its row, and so its id, for history. */
export class StreamRecord extends Model.Class<StreamRecord>("StreamRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  name: Schema.String,
  description: Schema.String,
  enabled: Schema.Boolean,
  templateId: Schema.String,
  fieldMap: JsonbColumn(FieldMap),
  lastReceivedAt: Model.Generated(Schema.NullOr(Schema.DateFromSelf)),
  lastSample: Model.Generated(Schema.NullOr(Schema.Unknown)),
  /** The request that created the row: a re-run of that request is the same create, not a conflict. */
  createRequestId: Model.FieldExcept("update", "json", "jsonCreate", "jsonUpdate")(Schema.NullOr(Schema.String)),
  createdAt: StampedByDatabase,
  updatedAt: StampedByDatabase,
  deletedAt: Model.Generated(Schema.NullOr(Schema.DateFromSelf))
}) {}

/** The fields a stream update may change; an absent field stays as it is. */
export const StreamChanges = Schema.Struct({
  name: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  enabled: Schema.optional(Schema.Boolean),
  templateId: Schema.optional(Schema.String),
  fieldMap: Schema.optional(FieldMap)
})
export type StreamChanges = typeof StreamChanges.Type

/** The part of a live stream an event is checked and mapped with. */
export const SendTarget = StreamRecord.select.pick("id", "name", "enabled", "templateId", "fieldMap")
export type SendTarget = typeof SendTarget.Type
