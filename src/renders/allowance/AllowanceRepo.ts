import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { AllowanceReservation, ReservationState } from "./AllowanceReservation.js"

const ByJob = Schema.Struct({ workspaceId: WorkspaceId, renderJobId: Schema.String })
const Usage = Schema.Struct({ committed: Schema.Number, reserved: Schema.Number })

/** Allowance reservations, one workspace at a time: another workspace's render job is never seen or moved. */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const usage = SqlSchema.single({
    Request: Schema.Struct({ workspaceId: WorkspaceId, periodStart: Schema.DateFromSelf }),
    Result: Usage,
    execute: ({ periodStart, workspaceId }) =>
      sql`SELECT
            coalesce(sum(videos) FILTER (WHERE state = 'committed' AND period_start = ${periodStart}), 0)::int
              AS committed,
            coalesce(sum(videos) FILTER (WHERE state = 'reserved'), 0)::int AS reserved
          FROM allowance_reservations WHERE workspace_id = ${workspaceId}`
  })
  const reserve = SqlSchema.void({
    Request: Schema.Array(AllowanceReservation.insert),
    execute: (rows) =>
      sql`INSERT INTO allowance_reservations ${sql.insert(rows)} ON CONFLICT (render_job_id) DO NOTHING`
  })
  const find = SqlSchema.findOne({
    Request: ByJob,
    Result: AllowanceReservation,
    execute: ({ renderJobId, workspaceId }) =>
      sql`SELECT * FROM allowance_reservations WHERE render_job_id = ${renderJobId} AND workspace_id = ${workspaceId}`
  })
  const transition = SqlSchema.findOne({
    Request: Schema.Struct({ ...ByJob.fields, from: ReservationState, to: ReservationState }),
    Result: AllowanceReservation,
    execute: ({ from, renderJobId, to, workspaceId }) =>
      sql`UPDATE allowance_reservations SET state = ${to}, updated_at = now()
          WHERE render_job_id = ${renderJobId} AND workspace_id = ${workspaceId} AND state = ${from} RETURNING *`
  })
  const move = (from: ReservationState, to: ReservationState) => (workspaceId: WorkspaceId, renderJobId: string) =>
    transition({ workspaceId, renderJobId, from, to }).pipe(Effect.map(Option.isSome), Effect.orDie)

  return {
    /** Videos finished this period, and videos still in flight (they count against what is left). */
    usage: (workspaceId: WorkspaceId, periodStart: Date) => Effect.orDie(usage({ workspaceId, periodStart })),
    /** One video per render job, all in one statement; a job already reserved stays as it is. */
    reserve: (workspaceId: WorkspaceId, renderJobIds: ReadonlyArray<string>, periodStart: Date) =>
      renderJobIds.length === 0 ? Effect.void : Effect.orDie(reserve(renderJobIds.map((renderJobId) =>
        AllowanceReservation.insert.make({ renderJobId, workspaceId, videos: 1, state: "reserved", periodStart })
      ))),
    isReserved: (workspaceId: WorkspaceId, renderJobId: string) =>
      find({ workspaceId, renderJobId }).pipe(Effect.map(Option.isSome), Effect.orDie),
    /** The render is counted: reserved, or already committed (a re-run after a crash); a released one is not. */
    holds: (workspaceId: WorkspaceId, renderJobId: string) =>
      find({ workspaceId, renderJobId }).pipe(
        Effect.map(Option.exists((reservation) => reservation.state !== "released")),
        Effect.orDie
      ),
    /** Idempotent: a render finished twice (re-run after a crash) is counted once. */
    commit: move("reserved", "committed"),
    release: move("reserved", "released")
  }
})

export class AllowanceRepo extends Context.Tag("clipwright/sql/AllowanceRepo")<
  AllowanceRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(AllowanceRepo, make)
}
