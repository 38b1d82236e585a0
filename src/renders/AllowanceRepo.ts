import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"

const Usage = Schema.Struct({ committed: Schema.Number, reserved: Schema.Number })

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const usage = SqlSchema.single({
    Request: Schema.Struct({ workspaceId: Schema.String, periodStart: Schema.DateFromSelf }),
    Result: Usage,
    execute: ({ periodStart, workspaceId }) =>
      sql`SELECT
            coalesce(sum(videos) FILTER (WHERE state = 'committed' AND period_start = ${periodStart}), 0)::int
              AS committed,
            coalesce(sum(videos) FILTER (WHERE state = 'reserved'), 0)::int AS reserved
          FROM allowance_reservations WHERE workspace_id = ${workspaceId}`
  })
  const transition = (from: string, to: string) => (renderJobId: string) =>
    sql`UPDATE allowance_reservations SET state = ${to}, updated_at = now()
        WHERE render_job_id = ${renderJobId} AND state = ${from} RETURNING render_job_id`.pipe(
      Effect.map((rows) => rows.length > 0),
      Effect.orDie
    )
  return {
    /** Videos finished this period, and videos still in flight (they count against what is left). */
    usage: (workspaceId: string, periodStart: Date) => Effect.orDie(usage({ workspaceId, periodStart })),
    reserve: (workspaceId: string, renderJobIds: ReadonlyArray<string>, periodStart: Date) =>
      Effect.orDie(sql`INSERT INTO allowance_reservations ${
        sql.insert(renderJobIds.map((renderJobId) => ({ renderJobId, workspaceId, videos: 1, state: "reserved", periodStart })))
      } ON CONFLICT (render_job_id) DO NOTHING`),
    isReserved: (renderJobId: string) =>
      sql`SELECT 1 FROM allowance_reservations WHERE render_job_id = ${renderJobId}`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    /** Idempotent: a render finished twice (re-run after a crash) is counted once. */
    commit: transition("reserved", "committed"),
    release: transition("reserved", "released")
  }
})

export class AllowanceRepo extends Context.Tag("clipwright/sql/AllowanceRepo")<
  AllowanceRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(AllowanceRepo, make)
}
