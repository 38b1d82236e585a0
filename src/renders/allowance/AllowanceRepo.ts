import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Data, Effect, Layer, Option, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"
import { AllowanceReservation, ReservationState } from "./AllowanceReservation.js"

const ByJob = Schema.Struct({ workspaceId: WorkspaceId, renderJobId: Schema.String })
const Usage = Schema.Struct({ committed: Schema.Number, reserved: Schema.Number, extra: Schema.Number })
const Period = Schema.Struct({ workspaceId: WorkspaceId, periodStart: Schema.DateFromSelf })
const Move = Schema.Struct({ ...Period.fields, renders: Schema.Number })

/** Rolls the transaction back: the first period gave renders the second cannot take. */
class CeilingReached extends Data.TaggedError("CeilingReached") {}

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
            coalesce(sum(videos) FILTER (WHERE state = 'reserved'), 0)::int AS reserved,
            coalesce((SELECT extra FROM render_extras WHERE workspace_id = ${workspaceId}
              AND period_start = ${periodStart}), 0)::int AS extra
          FROM allowance_reservations WHERE workspace_id = ${workspaceId}`
  })
  // One statement each, the ceiling checked in it: two buys at once never pass it together.
  const addExtra = SqlSchema.findOne({
    Request: Move,
    Result: Schema.Struct({ extra: Schema.Number }),
    execute: ({ periodStart, renders, workspaceId }) =>
      sql`INSERT INTO render_extras (workspace_id, period_start, extra)
          SELECT id, ${periodStart}, ${renders} FROM workspaces WHERE id = ${workspaceId} AND ${renders} <= extra_ceiling
          ON CONFLICT (workspace_id, period_start) DO UPDATE SET extra = render_extras.extra + excluded.extra
          WHERE render_extras.extra + excluded.extra <=
            (SELECT extra_ceiling FROM workspaces WHERE id = ${workspaceId})
          RETURNING extra`
  })
  const takeExtra = SqlSchema.findOne({
    Request: Move,
    Result: Schema.Struct({ extra: Schema.Number }),
    execute: ({ periodStart, renders, workspaceId }) =>
      sql`UPDATE render_extras SET extra = extra - ${renders}
          WHERE workspace_id = ${workspaceId} AND period_start = ${periodStart} AND extra >= ${renders} RETURNING extra`
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
    /** False when the period would hold more extra renders than the operator's ceiling. */
    addExtra: (workspaceId: WorkspaceId, periodStart: Date, renders: number) =>
      Effect.orDie(Effect.map(addExtra({ workspaceId, periodStart, renders }), Option.isSome)),
    /** False when the period holds fewer extra renders than that. */
    takeExtra: (workspaceId: WorkspaceId, periodStart: Date, renders: number) =>
      Effect.orDie(Effect.map(takeExtra({ workspaceId, periodStart, renders }), Option.isSome)),
    /** Moves extra renders from one period to another, or none of them (the other's ceiling holds). */
    moveExtra: (workspaceId: WorkspaceId, from: Date, to: Date, renders: number) =>
      sql.withTransaction(Effect.gen(function*() {
        if (Option.isNone(yield* takeExtra({ workspaceId, periodStart: from, renders }))) return false
        if (Option.isSome(yield* addExtra({ workspaceId, periodStart: to, renders }))) return true
        return yield* Effect.fail(new CeilingReached())
      })).pipe(Effect.catchTag("CeilingReached", () => Effect.succeed(false)), Effect.orDie),
    /** Videos finished this period, videos still in flight (they count against what is left), and extra renders. */
    usage: (workspaceId: WorkspaceId, periodStart: Date) => Effect.orDie(usage({ workspaceId, periodStart })),
    /** One video per render job, all in one statement; a job already reserved stays as it is. */
    reserve: (workspaceId: WorkspaceId, renderJobIds: ReadonlyArray<string>, periodStart: Date) =>
      renderJobIds.length === 0 ?
        Effect.void :
        Effect.orDie(
          reserve(
            renderJobIds.map((renderJobId) =>
              AllowanceReservation.insert.make({ renderJobId, workspaceId, videos: 1, state: "reserved", periodStart })
            )
          )
        ),
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

export class AllowanceRepo extends Context.Tag("clipwright/renders/allowance/AllowanceRepo")<
  AllowanceRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(AllowanceRepo, make)
}
