import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { StampedByDatabase } from "../sql/Columns.js"

/** `byte_size` is a bigint: pg answers it as text; the service writes and shows a number. */
const ByteSize = Model.Field({
  select: Schema.NumberFromString,
  insert: Schema.Number,
  update: Schema.Number,
  json: Schema.Number
})

/**
 * A rendered clip: its row in `clips`. `stored` turns false when its file is removed (the record stays); `kept`
 * when it is kept with the workspace's rendered clips. The media area's storage accounting also writes both.
 */
export class ClipRecord extends Model.Class<ClipRecord>("ClipRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  renderJobId: Schema.String,
  ratio: Schema.String,
  locale: Schema.String,
  width: Schema.Number,
  height: Schema.Number,
  durationMs: Schema.Number,
  byteSize: ByteSize,
  sha256: Schema.String,
  blobKey: Schema.String,
  stored: Model.Generated(Schema.Boolean),
  kept: Model.Generated(Schema.Boolean),
  createdAt: StampedByDatabase,
  expiresAt: Model.Generated(Schema.NullOr(Schema.DateFromSelf))
}) {}

/** A clip with what its listing and asset metadata show: its render job's template, and what relies on it. */
export const ListedClip = Schema.Struct({
  ...ClipRecord.fields,
  templateId: Schema.String,
  templateName: Schema.String,
  channelName: Schema.NullOr(Schema.String),
  needed: Schema.Boolean,
  neededBecause: Schema.NullOr(Schema.String)
})
export type ListedClip = typeof ListedClip.Type
