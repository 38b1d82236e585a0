import { Model } from "@effect/sql"
import { Schema } from "effect"
import { JsonbColumn, StampedByDatabase } from "../sql/Columns.js"

/** A platform broadcast: one feed event, carried to every workspace listening as an event of its own. */
export class BroadcastRecord extends Model.Class<BroadcastRecord>("BroadcastRecord")({
  id: Model.GeneratedByApp(Schema.String),
  eventId: Schema.String,
  bodyHash: Schema.String,
  keyId: Schema.String,
  sourceSlug: Schema.String,
  formatSlug: Schema.String,
  feedId: Schema.String,
  status: Schema.Literal("accepted", "stale"),
  occurredAt: Schema.DateFromSelf,
  locale: Schema.NullOr(Schema.String),
  data: JsonbColumn(Schema.Unknown),
  /** How many workspaces it was carried to. */
  workspaces: Schema.Number,
  requestId: Schema.String,
  receivedAt: StampedByDatabase
}) {}

/** One workspace's copy of a broadcast, as its ingest log holds it. */
export const BroadcastCopy = Schema.Struct({
  workspaceId: Schema.String,
  ingestEventId: Schema.String,
  status: Schema.String,
  jobs: Schema.Number
})
