import { SqlClient, SqlSchema } from "@effect/sql"
import { Duration, Effect, Layer, Schema } from "effect"
import { hasPendingMessage } from "../../sql/PendingMessages.js"
import { sweepEvery } from "../../sql/Sweeps.js"
import { TERMINAL_STATES_SQL } from "../RenderJob.js"
import { RenderRunnerEntity } from "../RenderRunnerEntity.js"

/** A render this long without a runner's message waiting is an orphan (its Start is sent within ms of its row). */
const ORPHAN_AFTER_SECONDS = 30
/** One node starts an orphan again, at most once a minute. */
const AGAIN_AFTER_SECONDS = 60
const SWEEP_EVERY = Duration.seconds(15)
const BATCH = 50

/**
 * A render that is open while no message to its runner waits is drawn by nobody, and every job waiting on it waits
 * for good. The cluster is meant to keep that from happening (a Start stays unanswered until the render ends, so a
 * dead node's render is redone); this sweep is the net under it, for whatever the library lost on a path nobody
 * traced (a defect during an entity's restart, a handler that outlived its two minutes of database retries). Every
 * node looks every 15 s; `FOR UPDATE SKIP LOCKED` and `swept_at` keep two from starting the same one. Each start
 * again is logged as a warning: it means something upstream went wrong.
 */
export const OrphanRenders = Layer.scopedDiscard(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const runner = yield* RenderRunnerEntity.client
  const claim = SqlSchema.findAll({
    Request: Schema.Void,
    Result: Schema.Struct({
      id: Schema.String,
      workspaceId: Schema.String,
      state: Schema.String,
      sweptAt: Schema.DateFromSelf
    }),
    execute: () =>
      sql`UPDATE render_jobs SET swept_at = now()
          WHERE id IN (
            SELECT r.id FROM render_jobs r
            WHERE r.state NOT IN ${sql.literal(TERMINAL_STATES_SQL)}
              AND r.submitted_at < now() - make_interval(secs => ${ORPHAN_AFTER_SECONDS})
              AND (r.swept_at IS NULL OR r.swept_at < now() - make_interval(secs => ${AGAIN_AFTER_SECONDS}))
              AND NOT ${hasPendingMessage(sql, "RenderRunner", "r.id")}
            ORDER BY r.submitted_at LIMIT ${BATCH}
            FOR UPDATE SKIP LOCKED)
          RETURNING id, workspace_id, state, swept_at`
  })
  const sweep = Effect.gen(function*() {
    const orphans = yield* claim(undefined)
    yield* Effect.forEach(
      orphans,
      (orphan) =>
        Effect.logWarning("A render had no runner to draw it; started it again").pipe(
          Effect.annotateLogs({ renderJobId: orphan.id, workspaceId: orphan.workspaceId, state: orphan.state }),
          Effect.zipRight(runner(orphan.id).Start({ round: orphan.sweptAt.getTime() }, { discard: true }))
        ),
      { discard: true }
    )
  })
  yield* sweepEvery("orphan render sweep", SWEEP_EVERY, sweep)
}))
