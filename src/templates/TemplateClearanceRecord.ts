import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { JsonbColumn } from "../sql/Columns.js"

/** One row of `template_clearances`: the only templates a restricted workspace may draw with. */
export class TemplateClearanceRecord extends Model.Class<TemplateClearanceRecord>("TemplateClearanceRecord")({
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  templateIds: JsonbColumn(Schema.Array(Schema.String)),
  updatedAt: Model.DateTimeUpdateFromDate
}) {}
