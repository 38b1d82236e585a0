import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { JsonbColumn, StampedByDatabase } from "../../sql/Columns.js"
import { ClipRecord } from "../ClipRecord.js"
import { ExportStatus } from "../RenderJob.js"
import { RenderJobRecord } from "../RenderJobRecord.js"

/**
 * A direct export: its row in `exports` (id = its render job's id). `status` is what the export entity has
 * recorded; until it records the end, the render job's state says how far it got.
 */
export class ExportRecord extends Model.Class<ExportRecord>("ExportRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  renderJobId: Schema.String,
  templateId: Schema.String,
  templateName: Schema.String,
  variant: Schema.String,
  version: Schema.String,
  brandId: Schema.NullOr(Schema.String),
  brandName: Schema.NullOr(Schema.String),
  ratio: Schema.String,
  locale: Schema.String,
  data: JsonbColumn(Schema.Unknown),
  title: Schema.NullOr(Schema.String),
  status: Model.Generated(ExportStatus),
  error: Model.Generated(Schema.NullOr(Schema.String)),
  kept: Model.Generated(Schema.Boolean),
  keptNote: Model.Generated(Schema.NullOr(Schema.String)),
  clipId: Model.Generated(Schema.NullOr(Schema.String)),
  createdBy: Schema.String,
  createdAt: StampedByDatabase,
  finishedAt: Model.Generated(Schema.NullOr(Schema.DateFromSelf)),
  discardedAt: Model.Generated(Schema.NullOr(Schema.DateFromSelf))
}) {}

const clip = ClipRecord.fields

/** An export with its render job's progress and state, and its clip's file facts (all null before it has one). */
export const TrackedExport = Schema.Struct({
  ...ExportRecord.fields,
  progress: RenderJobRecord.fields.progress,
  renderState: RenderJobRecord.fields.state,
  byteSize: Schema.NullOr(clip.byteSize),
  durationMs: Schema.NullOr(clip.durationMs),
  width: Schema.NullOr(clip.width),
  height: Schema.NullOr(clip.height),
  blobKey: Schema.NullOr(clip.blobKey),
  sha256: Schema.NullOr(clip.sha256),
  clipStored: Schema.NullOr(clip.stored),
  clipExpiresAt: clip.expiresAt
})
export type TrackedExport = typeof TrackedExport.Type
