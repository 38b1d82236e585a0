import { Context, Duration, Effect, Layer, Option } from "effect"
import { AppConfig } from "../../Config.js"

/** CONTRACT `DELIVERY_RETRY_SCHEDULE`: the waits between attempts after the first, e.g. `5s,5m,30m,2h`. */
export const parseRetrySchedule = (text: string): Option.Option<ReadonlyArray<number>> => {
  const parts = text.split(",").map((part) => part.trim()).filter((part) => part !== "")
  const waits = parts.map((part) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(part)
    if (match === null) return undefined
    const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as "ms" | "s" | "m" | "h" | "d"]
    return Math.round(Number(match[1]) * unit)
  })
  return waits.every((wait): wait is number => wait !== undefined) ? Option.some(waits) : Option.none()
}

/** How long to wait before each attempt after the first; a delivery gets `waits.length + 1` attempts in all. */
export class RetrySchedule extends Context.Tag("clipwright/delivery/handover/RetrySchedule")<RetrySchedule, {
  /** The wait before attempt `attempt + 1` after attempt `attempt` failed, or None when that was the last. */
  readonly after: (attempt: number) => Option.Option<Duration.Duration>
  readonly attempts: number
}>() {
  static readonly layer = Layer.effect(
    RetrySchedule,
    Effect.gen(function*() {
      const { deliveryRetrySchedule } = yield* AppConfig
      const waits = yield* Option.match(parseRetrySchedule(deliveryRetrySchedule), {
        onNone: () =>
          Effect.dieMessage(
            `DELIVERY_RETRY_SCHEDULE "${deliveryRetrySchedule}" is not a comma-separated list of waits such as 5s,5m,2h.`
          ),
        onSome: Effect.succeed
      })
      return {
        after: (attempt: number) => Option.map(Option.fromNullable(waits[attempt - 1]), Duration.millis),
        attempts: waits.length + 1
      }
    })
  )
}
