import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Origin } from "../../domain/Origin.js"
import { WorkspaceId } from "../../domain/Principal.js"
import { JobStatus } from "../../posts/JobStatus.js"
import { StampedByDatabase } from "../../sql/Columns.js"

/**
 * A job: one event on one channel, its post group. Created ACCEPTED together with its event, before the sender is
 * answered; the pipeline takes it from there.
 */
export class JobRecord extends Model.Class<JobRecord>("JobRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  ingestEventId: Schema.String,
  channelId: Schema.String,
  subscriptionId: Schema.String,
  origin: Origin,
  status: JobStatus,
  templateId: Schema.String,
  templateVariant: Schema.NullOr(Schema.String),
  /** Null follows the newest build, resolved when the job renders. */
  templateVersion: Schema.NullOr(Schema.String),
  ratio: Schema.String,
  locale: Schema.String,
  scheduledFor: Schema.NullOr(Schema.DateFromSelf),
  /** Set as the job moves on, by the steps of JobStatusSteps. */
  renderJobId: Model.Generated(Schema.NullOr(Schema.String)),
  error: Model.Generated(Schema.NullOr(Schema.String)),
  dispatchedAt: Model.Generated(Schema.NullOr(Schema.DateFromSelf)),
  finishedAt: Model.Generated(Schema.NullOr(Schema.DateFromSelf)),
  createdAt: StampedByDatabase,
  updatedAt: StampedByDatabase
}) {}
