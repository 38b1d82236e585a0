import { Webhook } from "standardwebhooks"
import { afterAll, describe, expect, it, vi } from "vitest"
import { type ReceivedCall, type Receiver, startReceiver } from "../support/Receiver.js"
import { useNode } from "../support/Rig.js"
import { deliveryOf, openDesk, postOf, until } from "./HandOverDesk.js"

/**
 * The default retry schedule (5s,5m,30m,2h,…) compressed 120 times, and the node's signing clock with it
 * (TEST_CLOCK_RATE): the fourth attempt comes 17.5 s after the first, 35 minutes of signed time later.
 */
const RATE = 120
const SCHEDULE = "42ms,2500ms,15s,60s,150s,300s,300s"
const ORIGIN = Date.now()
const signedNow = (real: number) => ORIGIN + (real - ORIGIN) * RATE

let receiver: Receiver | undefined

afterAll(async () => {
  await receiver?.stop()
})

const { node } = useNode({
  label: "handover_signed_retries",
  env: {
    ALLOW_PRIVATE_URLS: "true",
    DELIVERY_RETRY_SCHEDULE: SCHEDULE,
    TEST_CLOCK_RATE: String(RATE),
    TEST_CLOCK_ORIGIN: String(ORIGIN)
  }
})

/** `standardwebhooks` at its default tolerance (5 minutes), judging the call at the compressed clock's now. */
const verifies = (secret: string, call: ReceivedCall) => {
  const now = vi.spyOn(Date, "now").mockReturnValue(signedNow(Date.now()))
  try {
    new Webhook(secret).verify(call.body.toString("utf8"), call.headers as Record<string, string>)
    return true
  } catch {
    return false
  } finally {
    now.mockRestore()
  }
}

describe("automatic attempts are signed as they are sent", () => {
  it(
    "a receiver down for half an hour of signed time still verifies the attempt after it, and the post is PUBLISHED",
    async () => {
      let secret = ""
      const verdicts: Array<boolean> = []
      receiver = await startReceiver((call) => {
        if (verdicts.length < 3) {
          verdicts.push(false)
          return { status: 503, body: { error: "down" } }
        }
        const ok = verifies(secret, call)
        verdicts.push(ok)
        return ok ? { status: 200 } : { status: 401, body: { error: { code: "timestamp_skew" } } }
      })
      const desk = await openDesk(node, { name: "Long outage", webhookUrl: receiver.url })
      secret = desk.secret!
      await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: false })
      await desk.send()

      const calls = await receiver.waitFor(4, 120_000)
      const deliveryId = calls[0]!.headers["webhook-id"] as string
      const delivered = await until(
        "delivery settled",
        () => deliveryOf(desk.api, deliveryId),
        (d) => d.state !== "RETRYING",
        30_000
      )
      expect(verdicts).toEqual([false, false, false, true])
      expect(delivered).toMatchObject({ state: "DELIVERED", attempt: 4, lastStatusCode: 200 })

      // One message: the same id and bytes on every attempt, each signed at its own (compressed) time.
      const stamps = calls.map((call) => Number(call.headers["webhook-timestamp"]))
      for (const call of calls) {
        expect(call.headers["webhook-id"]).toBe(deliveryId)
        expect(call.body.equals(calls[0]!.body)).toBe(true)
      }
      const madeAt = Number(delivered.headers["webhook-timestamp"])
      expect(stamps[3]! - madeAt).toBeGreaterThan(30 * 60)
      expect(stamps).toEqual([...stamps].sort((a, b) => a - b))
      // The log shows the headers each attempt went out with.
      const SIGNED = ["webhook-id", "webhook-timestamp", "webhook-signature"]
      expect(delivered.attempts.map((a: { headers: Record<string, string> }) => SIGNED.map((name) => a.headers[name])))
        .toEqual(calls.map((call) => SIGNED.map((name) => call.headers[name])))

      const postId = calls[0]!.json.data.posts[0]!.id
      const post = await until("post settled", () => postOf(desk.api, postId), (p) => p?.state !== "PUBLISHING", 15_000)
      expect(post).toMatchObject({ state: "PUBLISHED", failureReason: null })
    },
    180_000
  )
})
