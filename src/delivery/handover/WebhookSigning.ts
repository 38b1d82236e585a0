import { Clock, Context, Effect, Layer } from "effect"
import { Webhook } from "standardwebhooks"
import { AppConfig } from "../../Config.js"

/** CONTRACT "Webhook wire format": the Standard Webhooks headers of one call of `body`, signed at `at`. */
export const signedHeaders = (secret: string, id: string, at: Date, body: string): Record<string, string> => ({
  "content-type": "application/json",
  "webhook-id": id,
  "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
  "webhook-signature": new Webhook(secret).sign(id, at, body)
})

/**
 * The time webhook calls are signed at: the Effect clock, or with TEST_CLOCK_RATE (tests and benches only) a clock
 * that runs `rate` times as fast from TEST_CLOCK_ORIGIN, so that a retry schedule of hours is hours of signed time
 * after seconds of real time. Only signatures read it: timers and records keep real time.
 */
export class SigningClock extends Context.Tag("clipwright/delivery/handover/SigningClock")<SigningClock, {
  readonly now: Effect.Effect<Date>
}>() {
  static readonly layer = Layer.effect(
    SigningClock,
    Effect.map(AppConfig, ({ compressedClock }) => ({
      now: Effect.map(
        Clock.currentTimeMillis,
        (ms) =>
          new Date(
            compressedClock === undefined
              ? ms
              : Math.round(compressedClock.origin + (ms - compressedClock.origin) * compressedClock.rate)
          )
      )
    }))
  )
}
