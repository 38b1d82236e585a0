/**
 * The receiver side of CONTRACT.md "Webhook wire format": checks one delivery's Standard Webhooks headers and
 * signature and answers what the receiver should say. Plain TypeScript, so a receiver needs nothing but this.
 */
import { timingSafeEqual } from "node:crypto"
import { Webhook } from "standardwebhooks"

/** Where the receiver remembers the delivery ids it has already processed. */
export interface SeenStore {
  readonly has: (id: string) => boolean
  readonly add: (id: string) => void
}

/** The most recent `capacity` ids in memory; the oldest are forgotten first. */
export class RecentIds implements SeenStore {
  private readonly ids = new Set<string>()
  constructor(private readonly capacity = 10_000) {}
  has(id: string) {
    return this.ids.has(id)
  }
  add(id: string) {
    this.ids.add(id)
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next()
      if (oldest.done !== true) this.ids.delete(oldest.value)
    }
  }
}

export interface VerifyOptions {
  /** How far from now `webhook-timestamp` may be, in seconds (default 300, CONTRACT.md). */
  readonly toleranceSeconds?: number
  /** Ids already processed (default: one in-memory store shared by every call in this process). */
  readonly seen?: SeenStore
  /** The clock, in milliseconds (default `Date.now`). */
  readonly now?: () => number
  /**
   * Also accept a timestamp up to this many seconds old for an id `seen` does not hold (default 0: off). A
   * redelivery resends the first attempt's headers unchanged, so without this a receiver refuses a redelivery
   * of a message it never processed once its signature is 5 minutes old. Safe only with a `seen` store that keeps
   * every processed id for longer than this window and the sender's retry horizon (a file or a database, not
   * `RecentIds`): an id it has forgotten can otherwise be replayed by whoever captured the request.
   */
  readonly redeliveryWindowSeconds?: number
}

export interface WebhookEvent {
  readonly type: string
  readonly timestamp: string
  readonly data: Record<string, unknown>
}

export type VerifyResult =
  | { readonly ok: true; readonly id: string; readonly timestamp: Date; readonly event: WebhookEvent }
  | {
    readonly ok: false
    readonly status: 400 | 401 | 409
    readonly code: "signature_invalid" | "timestamp_skew" | "replayed" | "malformed_json"
    readonly message: string
  }

/** Node's `req.headers`, a Fetch `Headers`, or a plain record. */
export type WebhookHeaders =
  | { readonly get: (name: string) => string | null }
  | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

const defaultSeen = new RecentIds()

const headerOf = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof headers.get === "function") return headers.get(name) ?? undefined
  const record = headers as Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  const key = Object.keys(record).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return typeof value === "string" ? value : value?.[0]
}

const fail = (
  status: 400 | 401 | 409,
  code: "signature_invalid" | "timestamp_skew" | "replayed" | "malformed_json",
  message: string
): VerifyResult => ({ ok: false, status, code, message })

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

const isEvent = (value: unknown): value is WebhookEvent =>
  typeof value === "object" && value !== null &&
  typeof (value as WebhookEvent).type === "string" &&
  typeof (value as WebhookEvent).data === "object" && (value as WebhookEvent).data !== null

/**
 * Verifies one delivery. `secret` is the `whsec_…` secret the operator's webhook route showed; `rawBody` is the
 * body exactly as received (parsing and re-serialising it would change the signed bytes).
 */
export const verifyWebhook = (
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyOptions = {}
): VerifyResult => {
  const id = headerOf(headers, "webhook-id")
  const timestampHeader = headerOf(headers, "webhook-timestamp")
  const signatures = headerOf(headers, "webhook-signature")
  if (!id || !timestampHeader || !signatures) {
    return fail(401, "signature_invalid", "webhook-id, webhook-timestamp and webhook-signature are all required.")
  }
  if (!/^\d{1,15}$/.test(timestampHeader)) {
    return fail(401, "signature_invalid", "webhook-timestamp is not a number of seconds.")
  }
  // Checked here, before the signature: the library answers every failure with one error type.
  const tolerance = options.toleranceSeconds ?? 300
  const seconds = Number(timestampHeader)
  const age = (options.now ?? Date.now)() / 1000 - seconds
  const skew = Math.abs(age)
  // An older timestamp may be a redelivery: accepted below only when its id was never processed.
  const redelivery = skew > tolerance && age > 0 && age <= (options.redeliveryWindowSeconds ?? 0)
  if (skew > tolerance && !redelivery) {
    return fail(
      401,
      "timestamp_skew",
      `webhook-timestamp is ${Math.round(skew)} s from now; at most ${tolerance} s is accepted.`
    )
  }
  const body = typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8")
  // `sign` rather than `verify`: `verify` would judge the timestamp again on its own fixed clock and tolerance.
  const expected = new Webhook(secret).sign(id, new Date(seconds * 1000), body)
  if (!signatures.split(" ").some((given) => sameText(given, expected))) {
    return fail(401, "signature_invalid", "No v1 signature in webhook-signature matches the body and the secret.")
  }
  const seen = options.seen ?? defaultSeen
  if (seen.has(id)) return fail(409, "replayed", `Delivery ${id} was already processed.`)
  let event: unknown
  try {
    event = JSON.parse(body)
  } catch {
    return fail(400, "malformed_json", "The signed body is not JSON.")
  }
  if (!isEvent(event)) return fail(400, "malformed_json", "The signed body is not { type, timestamp, data }.")
  seen.add(id)
  return { ok: true, id, timestamp: new Date(seconds * 1000), event }
}
