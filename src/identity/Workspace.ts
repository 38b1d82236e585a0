import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { StampedByDatabase } from "../sql/Columns.js"

/** A workspace (the spec's account): its limits, storage split and webhook address. The defaults are the database's. */
export class Workspace extends Model.Class<Workspace>("Workspace")({
  id: Model.GeneratedByApp(WorkspaceId),
  name: Schema.String,
  ownerEmail: Schema.NullOr(Schema.String),
  renderAllowance: Model.Generated(Schema.Number),
  storageMb: Model.Generated(Schema.Number),
  seats: Model.Generated(Schema.NullOr(Schema.Number)),
  limitsOverridden: Model.Generated(Schema.Boolean),
  /** Extra renders the owner may buy per period on top of the allowance (the operator's ceiling). */
  extraCeiling: Model.Generated(Schema.Number),
  mediaSharePercent: Model.Generated(Schema.Number),
  webhookUrl: Model.Generated(Schema.NullOr(Schema.String)),
  createdAt: StampedByDatabase
}) {}

/** What the operator may change of a workspace's limits; an absent limit stays as it is. */
export const LimitsChange = Schema.Struct({
  renderAllowance: Schema.optional(Schema.Number),
  storageMb: Schema.optional(Schema.Number),
  seats: Schema.optional(Schema.Number),
  extraCeiling: Schema.optional(Schema.Number)
})
export type LimitsChange = typeof LimitsChange.Type
