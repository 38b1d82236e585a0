import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RecentIds, verifyWebhook } from "../../src/delivery/receiver/Verify.js"
import { type ReceivedCall, type Receiver, startReceiver } from "../support/Receiver.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"
import { type SmtpSink, startSmtpSink } from "../support/SmtpSink.js"
import { deliveries, deliveryInState, deliveryOf, openDesk, postInState, until } from "./HandOverDesk.js"

let sink: SmtpSink
const receivers: Array<Receiver> = []

beforeAll(async () => {
  sink = await startSmtpSink()
})

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()))
  await sink?.stop()
})

const { node } = useNode({
  label: "handover_retries",
  env: () => ({ ALLOW_PRIVATE_URLS: "true", SMTP_URL: sink.url, DELIVERY_RETRY_SCHEDULE: "1s,1s" })
})

const receiver = async (answer: Parameters<typeof startReceiver>[0]) => {
  const started = await startReceiver(answer)
  receivers.push(started)
  return started
}

const SIGNED = ["content-type", "webhook-id", "webhook-timestamp", "webhook-signature"] as const
const signedHeaders = (call: ReceivedCall) => Object.fromEntries(SIGNED.map((name) => [name, call.headers[name]]))

describe("webhook retries", () => {
  it(
    "tries three times with the same id and bytes, each signed as sent, dies, shows it everywhere, and a redelivery publishes the post",
    async () => {
      const hooks = await receiver(() => ({ status: 500, body: { error: "down for maintenance" } }))
      const desk = await openDesk(node, { name: "Dead letters", webhookUrl: hooks.url })
      await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: false })
      await desk.send()

      const calls = await hooks.waitFor(3, 90_000)
      const deliveryId = calls[0]!.headers["webhook-id"] as string
      const dead = await deliveryInState(desk.api, deliveryId, "DEAD", 15_000)
      // Dead after the third attempt: no fourth call comes.
      expect(calls).toHaveLength(3)
      for (const call of calls) {
        expect(call.headers["webhook-id"]).toBe(deliveryId)
        expect(call.body.equals(calls[0]!.body)).toBe(true)
        expect(
          verifyWebhook(desk.secret!, call.headers as Record<string, string>, call.body, { seen: new RecentIds() }).ok
        ).toBe(true)
      }
      // What the log says each attempt sent is what arrived.
      expect(Buffer.from(dead.bodyBytes as string, "utf8").equals(calls[0]!.body)).toBe(true)
      expect(dead.attempts.map((a: { headers: Record<string, string> }) => a.headers)).toEqual(calls.map(signedHeaders))
      expect(dead.headers["webhook-id"]).toBe(deliveryId)
      expect(dead.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 500])
      expect(dead.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3])
      expect(dead.attempts[2].answer).toContain("down for maintenance")
      expect(dead.lastStatusCode).toBe(500)

      const listed = (await deliveries(desk.api)).find((d) => d.id === deliveryId)
      expect(listed).toMatchObject({
        state: "DEAD",
        attempt: 3,
        via: "webhook",
        event: "post.publish",
        lastStatusCode: 500
      })

      const postId = calls[0]!.json.data.posts[0]!.id
      const failed = await postInState(desk.api, postId, "POST_FAILED", 10_000)
      expect(failed!.failureReason).toMatch(/500/)
      expect(failed!.publishedAt).toBeNull()
      const overview = await desk.api.get("/v1/overview")
      expect(overview.status, overview.text).toBe(200)
      expect(overview.body.attention.deadDeliveries).toBe(1)

      hooks.answerWith(() => ({ status: 200 }))
      const redelivered = await desk.api.post(`/v1/deliveries/${deliveryId}/redeliver`)
      expect(redelivered.status, redelivered.text).toBe(200)
      expect(redelivered.body.delivery.state).toBe("DELIVERED")
      expect(hooks.calls).toHaveLength(4)
      const fourth = hooks.calls[3]!
      expect(fourth.body.equals(calls[0]!.body)).toBe(true)
      // A redelivery sends the stored headers unchanged (SPEC: byte for byte, the same signature).
      expect(signedHeaders(fourth)).toEqual(dead.headers)
      expect(
        redelivered.body.delivery.attempts.map((
          a: { statusCode: number; redelivery: boolean }
        ) => [a.statusCode, a.redelivery])
      )
        .toEqual([[500, false], [500, false], [500, false], [200, true]])

      const published = await postInState(desk.api, postId, "PUBLISHED", 10_000)
      expect(published!.publishedAt).not.toBeNull()
      expect((await desk.api.get("/v1/overview")).body.attention.deadDeliveries).toBe(0)

      expectError(await desk.api.post(`/v1/deliveries/${deliveryId}/redeliver`), 409, "invalid_state_transition")
      expect(hooks.calls).toHaveLength(4)
    },
    120_000
  )

  it("stops retrying once the receiver recovers before the last attempt", async () => {
    let answered = 0
    const hooks = await receiver(() => (++answered === 1 ? { status: 500 } : { status: 200 }))
    const desk = await openDesk(node, { name: "Recovers", webhookUrl: hooks.url })
    await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: false })
    await desk.send()

    const calls = await hooks.waitFor(2, 90_000)
    const deliveryId = calls[0]!.headers["webhook-id"] as string
    const delivered = await deliveryInState(desk.api, deliveryId, "DELIVERED", 15_000)
    expect(delivered.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200])
    expect(delivered.nextAttemptAt).toBeNull()
    expect(calls[1]!.body.equals(calls[0]!.body)).toBe(true)
    expect(calls[1]!.headers["webhook-id"]).toBe(calls[0]!.headers["webhook-id"])
    const post = await postInState(desk.api, calls[0]!.json.data.posts[0]!.id, "PUBLISHED", 10_000)
    expect(post!.failureReason).toBeNull()
    // Nothing to await for an attempt that must not come: let the third attempt's time (1 s after the second) pass.
    const quietUntil = Date.parse(delivered.attempts[1].startedAt) + 1_500
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, quietUntil - Date.now())))
    expect(hooks.calls).toHaveLength(2)
    expect((await desk.api.get("/v1/overview")).body.attention.deadDeliveries).toBe(0)
  }, 120_000)
})

describe("a retry coming due while its delivery's batch is still being sent", () => {
  // Found by `npm run faults` (receiver down 60 s): a delivery stays "being sent" until its whole batch is; the next
  // attempt's timer, stored as its attempt failed, could come due before that and was consumed without an attempt,
  // leaving the delivery RETRYING for good.
  it("waits for the batch and then tries again", async () => {
    let answered = 0
    const hooks = await receiver(() => (++answered === 1 ? { status: 500 } : { status: 200 }))
    const desk = await openDesk(node, { name: "Slow batch", webhookUrl: hooks.url })
    // One channel by webhook and email: one batch holding both; the webhook fails at once, the email takes 3 s, past
    // the 1 s the second webhook attempt waits.
    await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: true })
    sink.answerAfter(3_000)
    try {
      await desk.send()
      const calls = await hooks.waitFor(2, 60_000)
      const deliveryId = calls[0]!.headers["webhook-id"] as string
      const delivered = await deliveryInState(desk.api, deliveryId, "DELIVERED", 15_000)
      expect(delivered.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200])
      expect(calls[1]!.headers["webhook-id"]).toBe(deliveryId)
    } finally {
      sink.answerAfter(0)
    }
  }, 120_000)
})

describe("email retries", () => {
  it("retries an email the SMTP server refused, and delivers it once the server takes it", async () => {
    const desk = await openDesk(node, { name: "Mail retries" })
    await desk.channel({ name: "Reels", surface: "instagram-reels", deliverByWebhook: false, deliverByEmail: true })
    sink.refuse(true)
    await desk.send()

    await sink.waitForRefusals(1, 90_000)
    sink.refuse(false)
    const [mail] = await sink.waitFor(1, 15_000)
    expect(mail!.subject).toContain("Gold at a record")
    expect(sink.refusals()).toBe(1)

    const [email] = await until(
      "email delivered",
      () => deliveries(desk.api),
      (ds) => ds[0]?.state === "DELIVERED",
      15_000
    )
    expect(email).toMatchObject({ via: "email", state: "DELIVERED", attempt: 2 })
    const logged = await deliveryOf(desk.api, email!.id)
    expect(logged.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([550, 250])
    expect(logged.attempts[0].error).toMatch(/Refused by the test sink/)
    const post = await postInState(desk.api, email!.postId, "PUBLISHED", 10_000)
    expect(post!.publishedAt).not.toBeNull()
  }, 120_000)
})
