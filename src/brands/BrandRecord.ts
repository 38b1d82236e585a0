import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { BrandStyle } from "./BrandStyle.js"

/** `style` is a jsonb column: pg hands it back parsed, and it is sent as JSON text. */
const StyleColumn = Model.Field({
  select: BrandStyle,
  insert: Schema.parseJson(BrandStyle),
  update: Schema.parseJson(BrandStyle),
  json: BrandStyle
})

/**
 * A brand: its row in `brands`. A deleted brand keeps its row (`deletedAt` set), so a render submitted before the
 * deletion still draws with it; its name is free again.
 */
export class BrandRecord extends Model.Class<BrandRecord>("BrandRecord")({
  id: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  name: Schema.String,
  enabled: Schema.Boolean,
  style: StyleColumn,
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate,
  deletedAt: Model.FieldOnly("select")(Schema.NullOr(Model.DateTimeFromDate))
}) {}

/** What a brand's writer sets; the rest of the row stays. */
export interface BrandWrite {
  readonly name: string
  readonly enabled: boolean
  readonly style: BrandStyle
}
