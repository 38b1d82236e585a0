import { isDatabaseOutage } from "../domain/DatabaseOutage.js"
import { UpstreamUnavailable } from "../domain/Errors.js"
import { isStoreUnavailable } from "../storage/Errors.js"

/** An `SqlError` (failed or died with) that means the database is unavailable: 503 with a retry hint. */
export const databaseOutage = (u: unknown): UpstreamUnavailable | undefined =>
  isDatabaseOutage(u)
    ? new UpstreamUnavailable({
      message: "The database is unavailable for a moment; retry shortly.",
      retryAfterSeconds: 2
    })
    : undefined

/** The object store down (a `StoreUnavailable` defect): 503 with a retry hint, never a 500. */
export const storeOutage = (u: unknown): UpstreamUnavailable | undefined =>
  isStoreUnavailable(u)
    ? new UpstreamUnavailable({
      message: "The file store is unavailable for a moment; retry shortly.",
      retryAfterSeconds: 5
    })
    : undefined
