import { Schema } from "effect"

/** A workspace (the spec's account) with its limits and webhook address. */
export const WorkspaceRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  ownerEmail: Schema.NullOr(Schema.String),
  renderAllowance: Schema.Number,
  storageMb: Schema.Number,
  seats: Schema.NullOr(Schema.Number),
  limitsOverridden: Schema.Boolean,
  mediaSharePercent: Schema.Number,
  webhookUrl: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
})
export type WorkspaceRow = typeof WorkspaceRow.Type
