import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"

/** One template as a workspace last mirrored it from the registry. */
export class TemplateSyncRecord extends Model.Class<TemplateSyncRecord>("TemplateSyncRecord")({
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  templateId: Model.GeneratedByApp(Schema.String),
  descriptorSha: Schema.String,
  offered: Schema.Boolean,
  syncedAt: Schema.DateFromSelf
}) {}
