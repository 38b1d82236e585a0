import { StoreUnavailable } from "../Errors.js"

interface SdkError {
  readonly name?: unknown
  readonly code?: unknown
  readonly $metadata?: { readonly httpStatusCode?: unknown }
  readonly cause?: unknown
}

const NETWORK = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"])
const DOWN_NAMES = new Set(["TimeoutError", "RequestTimeout", "ServiceUnavailable", "SlowDown", "InternalError"])

/** The store did not answer, or answered that it cannot serve now (5xx): the service waits it out, never a 500. */
export const isStoreDown = (u: unknown): boolean => {
  for (let e = u as SdkError | undefined, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const status = e.$metadata?.httpStatusCode
    if (typeof status === "number" && status >= 500) return true
    if (typeof e.code === "string" && NETWORK.has(e.code)) return true
    if (typeof e.name === "string" && DOWN_NAMES.has(e.name)) return true
    e = e.cause as SdkError | undefined
  }
  return false
}

/** No object under the key (a bucket that is gone is not that: it is a fault). */
export const isMissing = (u: unknown): boolean => {
  const e = u as SdkError | undefined
  return e?.name !== "NoSuchBucket" &&
    (e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404)
}

export const isBadRange = (u: unknown): boolean => {
  const e = u as SdkError | undefined
  return e?.name === "InvalidRange" || e?.$metadata?.httpStatusCode === 416
}

/** What a failed store call dies with: `StoreUnavailable` when the store is down, the SDK's error otherwise. */
export const storeDefect = (u: unknown): unknown =>
  isStoreDown(u) ? new StoreUnavailable({ reason: u instanceof Error ? u.message : String(u) }) : u
