import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { JsonbColumn, StampedByDatabase } from "../sql/Columns.js"
import { JobStatus } from "./JobStatus.js"

/**
 * One publication on one channel, in one language and one shape; made by the channel's entity, its state moved with
 * its job's status (JobStatusSteps).
 */
export class PostRecord extends Model.Class<PostRecord>("PostRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  jobId: Schema.String,
  channelId: Schema.String,
  renderJobId: Schema.NullOr(Schema.String),
  platform: Schema.String,
  surface: Schema.String,
  locale: Schema.String,
  ratio: Schema.String,
  state: JobStatus,
  title: Schema.String,
  caption: Schema.String,
  hashtags: JsonbColumn(Schema.Array(Schema.String)),
  scheduledFor: Schema.DateFromSelf,
  publishedAt: Model.Generated(Schema.NullOr(Schema.DateFromSelf)),
  platformPostId: Model.Generated(Schema.NullOr(Schema.String)),
  permalink: Model.Generated(Schema.NullOr(Schema.String)),
  failureReason: Model.Generated(Schema.NullOr(Schema.String)),
  createdAt: StampedByDatabase,
  updatedAt: StampedByDatabase
}) {}
