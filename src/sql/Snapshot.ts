import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Runs reads in one snapshot of the database. Separate statements each see what was committed when they began, so a
 * record read by one and its rows read by another can disagree (a delivery DEAD beside two of its three attempts);
 * in one REPEATABLE READ transaction they agree.
 */
export const inOneSnapshot = (sql: SqlClient.SqlClient) => <A, E, R>(reads: Effect.Effect<A, E, R>) =>
  sql.withTransaction(
    Effect.zipRight(Effect.orDie(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`), reads)
  )
