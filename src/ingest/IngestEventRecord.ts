import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Origin } from "../domain/Origin.js"
import { WorkspaceId } from "../domain/Principal.js"
import { JsonbColumn, StampedByDatabase } from "../sql/Columns.js"

export const IngestStatus = Schema.Literal("ACCEPTED", "NO_MATCH", "UNMAPPED", "STALE")
export type IngestStatus = typeof IngestStatus.Type

/**
 * What carried the event in: a stream, a feed pushed by the workspace, the platform's broadcast of a feed, or a post
 * list's post firing at its time.
 */
export const IngestInput = Schema.Literal("stream", "feed", "broadcast", "queue")
export type IngestInput = typeof IngestInput.Type

export const Problem = Schema.Struct({ path: Schema.String, message: Schema.String })
export type Problem = typeof Problem.Type

/** One event a workspace received, whatever became of it; written once, with its jobs, before the sender's answer. */
export class IngestEventRecord extends Model.Class<IngestEventRecord>("IngestEventRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  eventId: Schema.String,
  bodyHash: Schema.String,
  input: IngestInput,
  origin: Origin,
  streamId: Schema.NullOr(Schema.String),
  feedId: Schema.NullOr(Schema.String),
  broadcastId: Schema.NullOr(Schema.String),
  /** The post list a fired post came from. */
  queueId: Schema.NullOr(Schema.String),
  /** What the log prints for the input: the stream's name, the feed's source/format, or the post list's name. */
  details: Schema.String,
  postTitle: Schema.NullOr(Schema.String),
  status: IngestStatus,
  occurredAt: Schema.DateFromSelf,
  receivedAt: StampedByDatabase,
  locale: Schema.NullOr(Schema.String),
  data: JsonbColumn(Schema.Unknown),
  normalized: JsonbColumn(Schema.NullOr(Schema.Unknown)),
  mappingErrors: JsonbColumn(Schema.NullOr(Schema.Array(Problem))),
  warnings: JsonbColumn(Schema.Array(Problem)),
  publishAt: Schema.NullOr(Schema.DateFromSelf),
  timezone: Schema.NullOr(Schema.String),
  requestId: Schema.String
}) {}
