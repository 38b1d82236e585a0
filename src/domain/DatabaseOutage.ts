/**
 * PostgreSQL's SQLSTATEs and the socket errors of a database that is down, restarting or out of connections:
 * class 08 (connection exception), 57P01-57P03 (shutdown, crash shutdown, cannot connect now), 53300 (too many
 * connections). A wrong query is a fault; these are the service's to wait out.
 */
const OUTAGE_STATES = /^(08...|57P0[123]|53300)$/
const OUTAGE_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"])
const OUTAGE_MESSAGES =
  /Connection terminated|terminating connection|is not queryable|the database system is (starting up|shutting down|not yet accepting connections)/i

const causesOf = function*(u: unknown, depth = 0): Generator<unknown> {
  if (u === null || typeof u !== "object" || depth > 5) return
  yield u
  yield* causesOf((u as { cause?: unknown }).cause, depth + 1)
}

const isOutage = (u: unknown) => {
  for (const e of causesOf(u)) {
    const { code, message } = e as { code?: unknown; message?: unknown }
    if (typeof code === "string" && (OUTAGE_STATES.test(code) || OUTAGE_ERRNOS.has(code))) return true
    if (typeof message === "string" && OUTAGE_MESSAGES.test(message)) return true
  }
  return false
}

const isSqlError = (u: unknown) => typeof u === "object" && u !== null && (u as { _tag?: unknown })._tag === "SqlError"

/** An `SqlError` meaning the database is unavailable, itself or as the cause of another error (a cluster send's). */
export const isDatabaseOutage = (u: unknown): boolean => {
  for (const e of causesOf(u)) if (isSqlError(e)) return isOutage(e)
  return false
}
