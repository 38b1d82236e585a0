import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { StampedByDatabase } from "../../sql/Columns.js"

/** Reserved on submit; committed when the video finishes, released when it does not. */
export const ReservationState = Schema.Literal("reserved", "committed", "released")
export type ReservationState = typeof ReservationState.Type

/** One render job's share of its workspace's render allowance: its row in `allowance_reservations`. */
export class AllowanceReservation extends Model.Class<AllowanceReservation>("AllowanceReservation")({
  renderJobId: Model.GeneratedByApp(Schema.String),
  workspaceId: Model.GeneratedByApp(WorkspaceId),
  videos: Schema.Number,
  state: ReservationState,
  periodStart: Schema.DateFromSelf,
  updatedAt: StampedByDatabase
}) {}
