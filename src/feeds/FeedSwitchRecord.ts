import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"

/** One row of `feed_switches`: a workspace's switch on one shipped feed. A feed without a row is on. */
export class FeedSwitchRecord extends Model.Class<FeedSwitchRecord>("FeedSwitchRecord")({
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  feedId: Model.GeneratedByApp(Schema.String),
  enabled: Schema.Boolean,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}
