import { Context, Duration, Effect, Layer, Option, Schema } from "effect"
import { AppConfig } from "../../Config.js"
import { continuingTrace } from "../../domain/TraceParent.js"
import { countAttempts } from "../../observability/Metrics.js"
import { MailTransport } from "../email/MailTransport.js"
import { ReceiverAnswer } from "../WebhookData.js"
import { DeliveryMessages } from "./DeliveryMessages.js"
import type { Sendable } from "./DeliveryRecord.js"
import { type AttemptRecord, DeliveryRepo, type HandOverTarget } from "./DeliveryRepo.js"
import { HandOverEntity } from "./HandOverEntity.js"
import { PostOutcomes } from "./PostOutcomes.js"
import { RetrySchedule } from "./RetrySchedule.js"
import { type CallOutcome, WebhookSender } from "./WebhookSender.js"
import { signedHeaders, SigningClock } from "./WebhookSigning.js"

const SEND_AT_ONCE = 64
const decoder = new TextDecoder()
const decodeAnswer = Schema.decodeUnknownOption(Schema.parseJson(ReceiverAnswer))

/** A delivery to try, and which attempt of its schedule this is (redeliveries are outside the schedule). */
export interface ToSend {
  readonly delivery: Sendable
  readonly attempt: number
  readonly redelivery: boolean
}

/**
 * Sends deliveries and records how it went: every attempt's row, the delivery's state, what it means for the posts,
 * and the timer of the next attempt. The timer is stored before the outcome, so a node dying in between leaves a
 * retry to happen rather than a delivery that waits for nothing.
 */
const make = Effect.gen(function*() {
  const repo = yield* DeliveryRepo
  const outcomes = yield* PostOutcomes
  const webhook = yield* WebhookSender
  const mail = yield* MailTransport
  const messages = yield* DeliveryMessages
  const schedule = yield* RetrySchedule
  const clock = yield* SigningClock
  const handOver = yield* HandOverEntity.client
  const { publicBaseUrl } = yield* AppConfig
  const fromAddress = `clipwright@${new URL(publicBaseUrl).hostname}`
  const from = `clipwright <${fromAddress}>`

  /**
   * CONTRACT "Webhook wire format": each automatic attempt signs the same id and bytes at its own time (a receiver
   * refuses a timestamp more than 5 minutes old); a redelivery sends the stored headers unchanged (SPEC).
   */
  const headersFor = (item: ToSend, secret: string | null, body: Uint8Array) =>
    item.redelivery || secret === null
      ? Effect.succeed(item.delivery.headers)
      : Effect.map(clock.now, (at) => signedHeaders(secret, item.delivery.id, at, decoder.decode(body)))

  /** One attempt: how it went, and the headers it went out with (webhook only). */
  const call = (item: ToSend, target: HandOverTarget | undefined) => {
    const { delivery } = item
    const failed = (error: string): CallOutcome => ({
      ok: false,
      statusCode: null,
      error,
      answer: null,
      answerText: null,
      durationMs: 0
    })
    if (delivery.via === "webhook") {
      const body = delivery.body
      if (target?.webhookUrl == null || body === null) {
        return Effect.succeed({ outcome: failed("The workspace has no webhook address."), headers: null })
      }
      return Effect.flatMap(
        headersFor(item, target.webhookSecret, body),
        (headers) => Effect.map(webhook.post(target.webhookUrl!, body, headers), (outcome) => ({ outcome, headers }))
      )
    }
    return Effect.gen(function*() {
      const raw = delivery.body ?? (yield* messages.compose(delivery, from, target?.name ?? ""))
      const sent = yield* mail.send({ deliveryId: delivery.id, from: fromAddress, to: delivery.recipients, raw })
      return { outcome: { ...sent, answerText: null }, headers: null }
    })
  }

  const afterward = (item: ToSend, outcome: CallOutcome, state: AttemptRecord["state"]) => {
    const { delivery } = item
    if (state === "DELIVERED") {
      if (delivery.event === "post.update") return outcomes.updated(delivery.id, delivery.changes ?? {})
      if (delivery.event === "post.delete") return outcomes.deleted(delivery.id)
      const said = outcome.answerText === null ? Option.none() : decodeAnswer(outcome.answerText)
      return Option.match(said, {
        onNone: () => Effect.void,
        onSome: (answer) => outcomes.receiverSaid(delivery.id, answer)
      })
    }
    if (state !== "DEAD" || item.redelivery) return Effect.void
    const reason = `Hand-over by ${delivery.via} failed ${delivery.attempt + 1} times; last: ${
      outcome.error ?? "no answer"
    }`
    if (delivery.event === "post.update") return outcomes.updateFailed(delivery.id, reason)
    if (delivery.event === "post.delete") return outcomes.deleteFailed(delivery.id, reason)
    return outcomes.publishFailed(delivery.id, reason)
  }

  const sendOne = (item: ToSend, target: HandOverTarget | undefined) =>
    Effect.gen(function*() {
      const startedAt = new Date()
      const { headers, outcome } = yield* call(item, target)
      const next = outcome.ok || item.redelivery ? Option.none() : schedule.after(item.attempt)
      const state = outcome.ok ? "DELIVERED" : Option.isSome(next) ? "RETRYING" : "DEAD"
      const nextAttemptAt = Option.match(next, {
        onNone: () => null,
        onSome: (wait) => new Date(Date.now() + Duration.toMillis(wait))
      })
      if (nextAttemptAt !== null) {
        yield* handOver(item.delivery.owner).Attempt({
          workspaceId: item.delivery.workspaceId,
          deliveryId: item.delivery.id,
          attempt: item.attempt + 1,
          at: nextAttemptAt.getTime()
        }, { discard: true }).pipe(Effect.orDie)
      }
      if (state !== "DELIVERED") {
        yield* Effect.logWarning("Hand-over attempt failed").pipe(Effect.annotateLogs({
          deliveryId: item.delivery.id,
          via: item.delivery.via,
          attempt: item.attempt,
          state,
          error: outcome.error
        }))
      }
      const record: AttemptRecord = {
        deliveryId: item.delivery.id,
        state,
        redelivery: item.redelivery,
        startedAt,
        durationMs: outcome.durationMs,
        statusCode: outcome.statusCode,
        error: outcome.error,
        answer: outcome.answer,
        headers,
        nextAttemptAt
      }
      return { item, outcome, record }
    })

  /**
   * Sends them (at most 64 at once), then records every outcome together. Answers each delivery's new state.
   * `known` saves reading the workspaces' targets again when the caller has them.
   */
  const send = (items: ReadonlyArray<ToSend>, known?: ReadonlyMap<string, HandOverTarget>) =>
    Effect.gen(function*() {
      if (items.length === 0) return new Map<string, AttemptRecord["state"]>()
      const workspaceIds = [...new Set(items.map((item) => item.delivery.workspaceId))]
      const targets = known !== undefined && workspaceIds.every((id) => known.has(id))
        ? known
        : new Map((yield* repo.targets(workspaceIds)).map((t) => [t.workspaceId as string, t]))
      const traces = yield* repo.tracesOf(items.map((item) => item.delivery.id))
      const results = yield* Effect.forEach(items, (item) =>
        // The attempt, its log line and its retry timer continue the trace its event came in with.
        sendOne(item, targets.get(item.delivery.workspaceId)).pipe(continuingTrace(traces.get(item.delivery.id))), {
        concurrency: SEND_AT_ONCE
      })
      // One commit for the attempts and what they mean for the posts.
      yield* repo.withTransaction(Effect.gen(function*() {
        yield* repo.record(results.map((r) => r.record))
        yield* outcomes.published(
          results.filter((r) => r.record.state === "DELIVERED" && r.item.delivery.event === "post.publish").map((r) =>
            r.item.delivery.id
          )
        )
        yield* Effect.forEach(results, (r) => afterward(r.item, r.outcome, r.record.state), { discard: true })
      })).pipe(Effect.orDie)
      yield* countAttempts(results.map(({ item, record }) => ({
        state: record.state,
        via: item.delivery.via,
        event: item.delivery.event,
        attempt: item.attempt,
        redelivery: item.redelivery
      })))
      return new Map(results.map((r) => [r.item.delivery.id, r.record.state]))
    })

  return { send, from }
})

export class DeliverySend
  extends Context.Tag("clipwright/delivery/handover/DeliverySend")<DeliverySend, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(DeliverySend, make)
}
