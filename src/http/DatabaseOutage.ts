import { UpstreamUnavailable } from "../domain/Errors.js"
import { isDatabaseOutage } from "../domain/DatabaseOutage.js"

/** An `SqlError` (failed or died with) that means the database is unavailable: 503 with a retry hint. */
export const databaseOutage = (u: unknown): UpstreamUnavailable | undefined =>
  isDatabaseOutage(u)
    ? new UpstreamUnavailable({ message: "The database is unavailable for a moment; retry shortly.", retryAfterSeconds: 2 })
    : undefined
