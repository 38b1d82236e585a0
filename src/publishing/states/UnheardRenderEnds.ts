import { SqlClient, SqlSchema } from "@effect/sql"
import { Duration, Effect, Layer, Schema } from "effect"
import { ChannelEntity } from "../../channels/ChannelEntity.js"
import { WorkspaceId } from "../../domain/Principal.js"
import { RenderJobState, TERMINAL_STATES_SQL } from "../../renders/RenderJob.js"
import { sweepEvery } from "../../sql/Sweeps.js"

/** A job still waiting this long after its render ended did not hear of it (told within ms, once its clips are kept). */
const UNHEARD_AFTER_SECONDS = 30
/** One node tells a job again, at most once a minute. */
const AGAIN_AFTER_SECONDS = 60
const SWEEP_EVERY = Duration.seconds(15)
const BATCH = 50

/**
 * Jobs still AWAITING_RENDERING well after their render ended: the runner tells every waiting job when it ends, and a
 * job that attaches to a render after reading it ended moves on by itself, so this should find nothing. It is the net
 * for a message lost on a path nobody traced; every job it tells again is logged as a warning. Every node looks every
 * 15 s; `FOR UPDATE SKIP LOCKED` and `swept_at` keep two from telling the same job.
 */
export const UnheardRenderEnds = Layer.scopedDiscard(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const channel = yield* ChannelEntity.client
  const claim = SqlSchema.findAll({
    Request: Schema.Void,
    Result: Schema.Struct({
      id: Schema.String,
      workspaceId: WorkspaceId,
      channelId: Schema.String,
      renderJobId: Schema.String,
      renderState: RenderJobState,
      renderError: Schema.NullOr(Schema.String),
      sweptAt: Schema.DateFromSelf
    }),
    execute: () =>
      sql`UPDATE jobs j SET swept_at = now()
          FROM render_jobs r
          WHERE r.id = j.render_job_id AND j.id IN (
            SELECT w.id FROM jobs w JOIN render_jobs e ON e.id = w.render_job_id
            WHERE w.status = 'AWAITING_RENDERING'
              AND e.state IN ${sql.literal(TERMINAL_STATES_SQL)}
              AND e.finished_at < now() - make_interval(secs => ${UNHEARD_AFTER_SECONDS})
              AND (w.swept_at IS NULL OR w.swept_at < now() - make_interval(secs => ${AGAIN_AFTER_SECONDS}))
            LIMIT ${BATCH}
            FOR UPDATE OF w SKIP LOCKED)
          RETURNING j.id, j.workspace_id, j.channel_id, j.render_job_id, r.state AS render_state,
            r.error AS render_error, j.swept_at`
  })
  const sweep = Effect.gen(function*() {
    const unheard = yield* claim(undefined)
    yield* Effect.forEach(
      unheard,
      (job) =>
        Effect.logWarning("A job had not heard that its render ended; told it again").pipe(
          Effect.annotateLogs({ jobId: job.id, renderJobId: job.renderJobId, renderState: job.renderState }),
          Effect.zipRight(
            channel(job.channelId).JobRenderEnded({
              workspaceId: job.workspaceId,
              jobId: job.id,
              renderJobId: job.renderJobId,
              state: job.renderState,
              error: job.renderError,
              round: job.sweptAt.getTime()
            }, { discard: true })
          )
        ),
      { discard: true }
    )
  })
  yield* sweepEvery("unheard render ends sweep", SWEEP_EVERY, sweep)
}))
