import { Context, Effect, FiberRef, Layer, Option } from "effect"
import { entityCall } from "../../domain/EntityCalls.js"
import { InvalidStateTransition, NotFound } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { CurrentRequestId } from "../../domain/RequestId.js"
import { HandOverEntity } from "../handover/HandOverEntity.js"
import {
  type AttemptRow,
  DeliveriesQuery,
  type DeliveryFilter,
  EMAIL_TEXT_MAX_BYTES,
  type LoggedDelivery,
  type StoredDelivery
} from "./DeliveriesQuery.js"
import type { Delivery, DeliveryRow } from "./Delivery.js"
import { hideReceiptLinks, hideReceiptLinksInEmail } from "./ReceiptRedaction.js"

const redeliverable = new Set(["DEAD", "RETRYING"])

const rowOf = (d: LoggedDelivery): DeliveryRow => ({
  id: d.id,
  event: d.event,
  state: d.state,
  attempt: d.attempt,
  nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
  lastStatusCode: d.lastStatusCode,
  lastError: d.lastError,
  deliveredAt: d.deliveredAt?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
  postId: d.postIds[0] ?? null,
  channelName: d.channelNames[0] ?? null,
  platform: d.platform,
  via: d.via,
  postIds: d.postIds,
  channelNames: d.channelNames
})

const parsedOrText = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const bodyOf = (d: StoredDelivery, showReceipts: boolean) => {
  if (d.body === null) return { body: null, bodyBytes: null, bodyTruncated: false }
  if (d.via === "webhook") {
    const sent = new TextDecoder().decode(d.body)
    const text = showReceipts ? sent : hideReceiptLinks(sent)
    return { body: parsedOrText(text), bodyBytes: text, bodyTruncated: false }
  }
  const truncated = (d.bodySize ?? 0) > EMAIL_TEXT_MAX_BYTES
  // A stored excerpt may end inside a character: decoding as a stream leaves that last part out instead of showing a
  // replacement character.
  const message = new TextDecoder().decode(d.body, { stream: truncated })
  return { body: showReceipts ? message : hideReceiptLinksInEmail(message), bodyBytes: null, bodyTruncated: truncated }
}

const attemptOf = (a: AttemptRow) => ({
  attempt: a.attempt,
  redelivery: a.redelivery,
  startedAt: a.startedAt.toISOString(),
  durationMs: a.durationMs,
  statusCode: a.statusCode,
  error: a.error,
  answer: a.answer,
  headers: a.headers
})

/** The deliveries log (SQL) and redelivery, which goes through the delivery's HandOver entity. */
const make = Effect.gen(function*() {
  const query = yield* DeliveriesQuery
  const handOver = yield* HandOverEntity.client

  const list = Effect.fn("Deliveries.list")(function*(workspaceId: WorkspaceId, limit: number) {
    const rows = yield* query.recent(workspaceId, limit)
    return { deliveries: rows.map(rowOf) }
  })

  /**
   * A page (from 1) of the log narrowed by `filter`, whether a next page holds more, and how many of the workspace's
   * deliveries are dead. A log grows without end, so it is paged by looking one row ahead rather than by counting it.
   */
  const page = Effect.fn("Deliveries.page")(
    function*(workspaceId: WorkspaceId, filter: DeliveryFilter, pageNo: number, perPage: number) {
      const [rows, dead] = yield* Effect.all([
        query.page(workspaceId, filter, perPage + 1, (pageNo - 1) * perPage),
        query.deadCount(workspaceId)
      ], { concurrency: "unbounded" })
      return {
        deliveries: rows.slice(0, perPage).map(rowOf),
        hasNext: rows.length > perPage,
        page: pageNo,
        perPage,
        dead
      }
    }
  )

  /**
   * Another workspace's delivery answers exactly like a missing one. Receipt links are hidden unless `showReceipts`
   * (the caller holds RECEIPTS_SHOWN_TO).
   */
  const get = Effect.fn("Deliveries.get")(function*(workspaceId: WorkspaceId, id: string, showReceipts: boolean) {
    const [found, attempts] = yield* query.findWithAttempts(workspaceId, id)
    if (Option.isNone(found)) return yield* new NotFound({ message: `No delivery ${id}.` })
    const d = found.value
    const delivery: Delivery = {
      ...rowOf(d),
      url: d.url,
      recipients: d.recipients,
      headers: d.headers,
      ...bodyOf(d, showReceipts),
      attempts: attempts.map(attemptOf)
    }
    return { delivery }
  })

  const redeliver = Effect.fn("Deliveries.redeliver")(
    function*(workspaceId: WorkspaceId, id: string, showReceipts: boolean) {
      const standing = yield* query.standing(workspaceId, id)
      if (Option.isNone(standing)) return yield* new NotFound({ message: `No delivery ${id}.` })
      const { owner, state } = standing.value
      // Checked here as well as by the entity, so a refusal never waits on the cluster.
      if (!redeliverable.has(state)) {
        return yield* new InvalidStateTransition({
          message: `Delivery ${id} is ${state}: only a DEAD or RETRYING delivery can be redelivered.`
        })
      }
      yield* entityCall(
        handOver(owner).Redeliver({
          requestId: yield* FiberRef.get(CurrentRequestId),
          workspaceId,
          deliveryId: id
        })
      )
      return yield* get(workspaceId, id, showReceipts)
    }
  )

  return { list, page, get, redeliver }
})

export class Deliveries extends Context.Tag("clipwright/delivery/log/Deliveries")<
  Deliveries,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Deliveries, make)
}
