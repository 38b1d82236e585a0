import { ClusterCron, MachineId, Snowflake } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { Clock, Cron, Duration, Effect, Either } from "effect"

/** Processed messages stay long enough for a retried request to find its stored reply, then go. */
export const MESSAGE_RETENTION = Duration.days(2)

/**
 * The cluster library never deletes processed messages; this prunes them (and their replies) once an hour. Then it
 * vacuums both tables: every message leaves dead row versions behind (read, then processed), and where autovacuum is
 * off or behind they would pile up in the tables and in the index the read loop uses.
 */
export const pruneProcessedMessages = Effect.gen(function*() {
  const sql = (yield* SqlClient.SqlClient).withoutTransforms()
  const now = yield* Clock.currentTimeMillis
  const cutoff = Snowflake.make({
    timestamp: now - Duration.toMillis(MESSAGE_RETENTION),
    machineId: MachineId.make(0),
    sequence: 0
  })
  const cutoffId = cutoff.toString()
  yield* sql`DELETE FROM cluster_replies r USING cluster_messages m
    WHERE r.request_id = m.id AND m.processed AND m.id < ${cutoffId}::bigint`
  const deleted = yield* sql`DELETE FROM cluster_messages WHERE processed AND id < ${cutoffId}::bigint RETURNING id`
  yield* sql`VACUUM (ANALYZE) cluster_messages, cluster_replies`
  yield* Effect.logInfo("Pruned processed cluster messages", { count: deleted.length })
}).pipe(Effect.withSpan("MessageRetention.prune"))

export const MessageRetentionLive = ClusterCron.make({
  name: "MessageRetention",
  cron: Either.getOrThrow(Cron.parse("17 * * * *")),
  execute: Effect.orDie(pruneProcessedMessages)
})
