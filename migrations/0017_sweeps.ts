import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // When a sweep last started an orphaned render again, or told a job its render ended: one node does it, once a
  // minute at most (src/renders/jobs/OrphanRenders.ts, src/channels/jobs/UnheardRenderEnds.ts).
  yield* sql`ALTER TABLE render_jobs ADD COLUMN swept_at timestamptz`
  yield* sql`CREATE INDEX render_jobs_open_idx ON render_jobs (submitted_at)
    WHERE state NOT IN ('COMPLETED', 'PARTIAL', 'FAILED', 'TIMED_OUT', 'CANCELLED')`
  yield* sql`ALTER TABLE jobs ADD COLUMN swept_at timestamptz`
  yield* sql`CREATE INDEX jobs_awaiting_render_idx ON jobs (render_job_id) WHERE status = 'AWAITING_RENDERING'`
})
