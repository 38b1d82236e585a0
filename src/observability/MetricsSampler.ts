import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Metric, Schedule, Schema } from "effect"
import { jobsByStatus, renderQueue, withTags } from "./Metrics.js"

const SAMPLE_EVERY = "10 seconds"
const WAITING_RENDER_STATES = ["PENDING", "SUBMITTED"] as const

const Count = Schema.Struct({ key: Schema.String, total: Schema.Number })

/**
 * One fiber per node reads the job and render-queue counts every 10 s into gauges. These are operator totals over
 * every workspace, so they are the one read without a workspace id. A status counted before and absent now is set
 * to 0, or its gauge would keep its last count.
 */
export const MetricsSamplerLive = Layer.scopedDiscard(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const jobCounts = SqlSchema.findAll({
    Request: Schema.Void,
    Result: Count,
    execute: () => sql`SELECT status AS key, count(*)::int AS total FROM jobs GROUP BY status`
  })
  const renderCounts = SqlSchema.findAll({
    Request: Schema.Void,
    Result: Count,
    execute: () =>
      sql`SELECT state AS key, count(*)::int AS total FROM render_jobs
          WHERE state IN ${sql.in(WAITING_RENDER_STATES)} GROUP BY state`
  })
  const setAll = (
    gauge: typeof jobsByStatus,
    tag: string,
    seen: Set<string>,
    rows: ReadonlyArray<typeof Count.Type>
  ) => {
    const counts = new Map(rows.map((row) => [row.key, row.total]))
    counts.forEach((_, key) => seen.add(key))
    return Effect.forEach(seen, (key) => Metric.set(withTags(gauge, { [tag]: key }), counts.get(key) ?? 0), {
      discard: true
    })
  }
  const jobStatuses = new Set<string>()
  const renderStates = new Set<string>(WAITING_RENDER_STATES)
  const sample = Effect.gen(function*() {
    yield* setAll(jobsByStatus, "status", jobStatuses, yield* jobCounts(undefined))
    yield* setAll(renderQueue, "state", renderStates, yield* renderCounts(undefined))
  }).pipe(
    Effect.catchAll((error) => Effect.logWarning("metrics: the job counts could not be read", error)),
    Effect.withTracerEnabled(false)
  )
  yield* Effect.forkScoped(Effect.repeat(sample, Schedule.spaced(SAMPLE_EVERY)))
}))
