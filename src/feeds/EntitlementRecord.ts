import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"

/**
 * One row of `feed_entitlements`: the operator's word on one source for one workspace, where it differs from the
 * source's `includedByDefault` (granted when not included, withdrawn when included).
 */
export class EntitlementRecord extends Model.Class<EntitlementRecord>("EntitlementRecord")({
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  sourceSlug: Model.GeneratedByApp(Schema.String),
  entitled: Schema.Boolean,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}
