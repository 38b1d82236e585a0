import { RateLimiter } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer } from "effect"

const storeError = (cause: unknown) =>
  new RateLimiter.RateLimitStoreError({ message: "The rate limit counters could not be read", cause })

/**
 * `@effect/experimental`'s RateLimiter counting in PostgreSQL, so every node of a cluster counts the same window
 * (the memory store would give each node its own). One row per key; each step is one statement, so two nodes
 * taking from the same key never both see the old count.
 */
export const PgRateLimiterStore = Layer.effect(
  RateLimiter.RateLimiterStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return RateLimiter.RateLimiterStore.of({
      // A window opens at the first take and lasts `refillRate × limit`; past its end the count starts again.
      fixedWindow: ({ key, limit, refillRate, tokens }) => {
        const windowMs = Duration.toMillis(refillRate) * (limit ?? 1)
        return sql<{ readonly count: number; readonly ttl: number }>`
          INSERT INTO rate_limits (key, count, resets_at)
          VALUES (${key}, ${tokens}, now() + ${windowMs} * interval '1 millisecond')
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN rate_limits.resets_at <= now() THEN excluded.count
                         ELSE rate_limits.count + excluded.count END,
            resets_at = CASE WHEN rate_limits.resets_at <= now() THEN excluded.resets_at ELSE rate_limits.resets_at END
          RETURNING count, greatest(0, extract(epoch FROM resets_at - now()) * 1000)::float8 AS ttl`.pipe(
          Effect.map((rows) => [rows[0]?.count ?? tokens, rows[0]?.ttl ?? windowMs] as const),
          Effect.mapError(storeError)
        )
      },
      // `count` holds the tokens left as of `resets_at`, refilled by elapsed time at each take.
      tokenBucket: ({ allowOverflow, key, limit, refillRate, tokens }) => {
        const refillMs = Math.max(1, Duration.toMillis(refillRate))
        return sql<{ readonly remaining: number }>`
          WITH now_ AS (SELECT now() AS t),
          current AS (
            SELECT least(${limit}::float8, r.count + extract(epoch FROM n.t - r.resets_at) * 1000 / ${refillMs})
                     AS available
            FROM rate_limits r, now_ n WHERE r.key = ${key} FOR UPDATE OF r
          ),
          taken AS (
            SELECT coalesce((SELECT available FROM current), ${limit}::float8) - ${tokens} AS remaining
          ),
          written AS (
            INSERT INTO rate_limits (key, count, resets_at)
            SELECT ${key}, t.remaining, n.t FROM taken t, now_ n WHERE t.remaining >= 0 OR ${allowOverflow}
            ON CONFLICT (key) DO UPDATE SET count = excluded.count, resets_at = excluded.resets_at
          )
          SELECT remaining FROM taken`.pipe(
          Effect.map((rows) => rows[0]?.remaining ?? limit - tokens),
          Effect.mapError(storeError)
        )
      }
    })
  })
)

/** The limiter over the PostgreSQL store. */
export const PgRateLimiter = RateLimiter.layer.pipe(Layer.provide(PgRateLimiterStore))
