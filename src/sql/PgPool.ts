import { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Runtime } from "effect"
import pg from "pg"

/**
 * The node's PostgreSQL connections. A connection must come back to the pool outside any transaction; one that does
 * not (a COMMIT or ROLLBACK that failed on a live connection, e.g. hit by a late query cancel) would run every
 * later statement given to it inside that transaction: nothing it writes is committed, and the rows it touches stay
 * locked, so `SKIP LOCKED` claims pass them by for good. Such a connection is rolled back before its next use (the
 * ROLLBACK is queued ahead of the new user's statements) and the event is logged.
 */
export const openPool = (url: string, maxConnections: number) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => new pg.Pool({ connectionString: url, max: maxConnections, application_name: "clipwright" })),
      (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(Duration.seconds(1)))
    )
    // An idle connection lost with the server is noticed by the pool and replaced; nothing else is to be done.
    pool.on("error", () => undefined)
    pool.on("acquire", (client) => {
      const status = client.getTransactionStatus()
      if (status !== "T" && status !== "E") return
      client.query("ROLLBACK").catch(() => undefined)
      Runtime.runFork(runtime)(
        Effect.logWarning("A pooled connection came back inside a transaction; rolled back").pipe(
          Effect.annotateLogs({ transactionStatus: status === "T" ? "open" : "failed" })
        )
      )
    })
    // Fail the start at once when the database is unreachable, as the library's own pool does.
    yield* Effect.tryPromise({
      try: () => pool.query("SELECT 1"),
      catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
    }).pipe(Effect.timeoutFail({
      duration: Duration.seconds(5),
      onTimeout: () =>
        new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
    }))
    return pool
  })
