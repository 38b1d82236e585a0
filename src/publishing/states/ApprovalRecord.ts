import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { StampedByDatabase } from "../../sql/Columns.js"

export const ApprovalState = Schema.Literal("PENDING", "APPROVED", "REJECTED")
export type ApprovalState = typeof ApprovalState.Type

/** A PER_POST channel's job waiting on a person's decision; written by the channel's entity. */
export class ApprovalRecord extends Model.Class<ApprovalRecord>("ApprovalRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  jobId: Schema.String,
  channelId: Schema.String,
  state: ApprovalState,
  note: Schema.NullOr(Schema.String),
  requestedAt: StampedByDatabase,
  decidedAt: Model.Generated(Schema.NullOr(Schema.DateFromSelf)),
  /** `user:<email>` or `apikey:<id>` (`actorOf` in domain/Principal.ts); null while pending. */
  decidedBy: Model.Generated(Schema.NullOr(Schema.String))
}) {}
