import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { JsonbColumn, StampedByDatabase } from "../sql/Columns.js"
import { RenderJobState, RenderPackage } from "./RenderJob.js"

/** Stamped in SQL as the state moves (`started_at`, `finished_at`), on the database's clock like `submitted_at`. */
const StampedLater = Model.Generated(Schema.NullOr(Schema.DateFromSelf))

/**
 * A render job: its row in `render_jobs`. Written once when the job is created; from then on only its state,
 * progress, attempt and error move, in SQL, as the render runner draws it.
 */
export class RenderJobRecord extends Model.Class<RenderJobRecord>("RenderJobRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  origin: Schema.String,
  details: Schema.String,
  postTitle: Schema.NullOr(Schema.String),
  templateId: Schema.String,
  templateName: Schema.String,
  templateVariant: Schema.String,
  templateVersion: Schema.String,
  state: Model.Generated(RenderJobState),
  priority: Schema.Number,
  outputsRequested: Schema.Number,
  outputsSucceeded: Model.Generated(Schema.Number),
  progress: Model.Generated(Schema.Number),
  attempt: Model.Generated(Schema.Number),
  error: Model.Generated(Schema.NullOr(Schema.String)),
  package: JsonbColumn(RenderPackage),
  /** What makes two outputs the same video (pipeline renders; null for exports): how a render is found again. */
  contentKey: Schema.NullOr(Schema.String),
  submittedAt: StampedByDatabase,
  startedAt: StampedLater,
  finishedAt: StampedLater
}) {}

/**
 * A job as the render job log lists it: with its stored clips and the first of them, and what the log prints for
 * where it came from now (`printedDetails`: a removed stream's name ends in ' (removed)').
 */
export const ListedJob = Schema.Struct({
  ...RenderJobRecord.fields,
  printedDetails: Schema.String,
  clipsStored: Schema.Number,
  clipId: Schema.NullOr(Schema.String)
})
export type ListedJob = typeof ListedJob.Type
