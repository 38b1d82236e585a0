import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer } from "effect"
import { sweepEvery } from "../src/sql/Sweeps.js"

/** A message read this long ago and still not answered is read again (the library waits ten minutes). */
export const READ_AGAIN_AFTER_SECONDS = 20
const SWEEP_EVERY = Duration.seconds(10)

/**
 * The cluster library's read loop stamps `last_read` on every unanswered message it reads and reads it again only
 * ten minutes later. A message read and then dropped on the way to its entity (the entity restarting after a fault,
 * its shard being handed over, the database failing between the read and the hand-off) therefore sleeps for ten
 * minutes, and with it every request sent later under the same primary key, which waits on the first one's reply: one
 * lost Reserve held every job of one video ACCEPTED (the short fault matrix, after a PostgreSQL restart). Clearing the
 * stamp once it is 20 s old has the owner read the message again at its next poll; a message its entity is still
 * handling (a long render) is recognised by the read loop and skipped, as it is at the library's own ten minutes.
 */
export const ForgottenMessagesLive = Layer.scopedDiscard(Effect.gen(function*() {
  const sql = (yield* SqlClient.SqlClient).withoutTransforms()
  // `NOT processed` lets PostgreSQL read the partial index of unanswered messages (cluster/Cluster.ts): the sweep
  // costs what the backlog is. SKIP LOCKED leaves rows a read loop is stamping right now to that read loop.
  const clear = sql`UPDATE cluster_messages SET last_read = NULL
    WHERE id IN (
      SELECT id FROM cluster_messages
      WHERE NOT processed AND last_read < now() - make_interval(secs => ${READ_AGAIN_AFTER_SECONDS})
      FOR UPDATE SKIP LOCKED)`
  yield* sweepEvery("forgotten cluster messages sweep", SWEEP_EVERY, Effect.asVoid(clear))
}))
