import { Context, Effect, FiberRef, Layer, Option } from "effect"
import { MatchingChannels } from "../channels/MatchingChannels.js"
import { digestOf } from "../domain/Digest.js"
import { detailAt, IdempotencyConflict, NotFound } from "../domain/Errors.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { newUlid } from "../domain/Ulid.js"
import { FeedSwitches } from "../feeds/FeedSwitches.js"
import type { BroadcastRecord } from "./BroadcastRecord.js"
import { BroadcastRepo } from "./BroadcastRepo.js"
import type { BroadcastEnvelope } from "./Envelope.js"
import { FeedEvents } from "./FeedEvents.js"

const summaryOf = (row: BroadcastRecord) => ({
  id: row.id,
  eventId: row.eventId,
  sourceSlug: row.sourceSlug,
  formatSlug: row.formatSlug,
  feedId: row.feedId,
  status: row.status,
  occurredAt: row.occurredAt.toISOString(),
  receivedAt: row.receivedAt.toISOString(),
  workspaces: row.workspaces
})

/**
 * The platform's broadcasts: one feed event for every workspace that has the feed on and a channel subscribed, landed
 * in each as an event of its own (its ingest log, its jobs). The broadcast's row is written first; a repeat of the
 * same broadcast carries it again to every workspace, which lands only where it had not (each workspace's eventId is
 * idempotent), so a sender retrying after a crash completes it.
 */
const make = Effect.gen(function*() {
  const repo = yield* BroadcastRepo
  const feeds = yield* FeedEvents
  const matching = yield* MatchingChannels
  const switches = yield* FeedSwitches

  const prepare = Effect.fnUntraced(function*(body: BroadcastEnvelope) {
    const event = yield* feeds.check({ sourceSlug: body.sourceSlug, formatSlug: body.formatSlug, inBody: true }, {
      eventId: body.eventId,
      occurredAt: body.occurredAt,
      origin: "shipped",
      locale: body.locale,
      data: body.data,
      schedule: { publishAt: null, timezone: null }
    })
    const off = yield* switches.switchedOffAnywhere(event.bound.feed.id)
    const audience = (yield* matching.feedAudience(event.bound.feed.id)).filter((workspaceId) => !off.has(workspaceId))
    return { event, audience }
  })

  const validate = Effect.fn("Broadcasts.validate")(function*(body: BroadcastEnvelope) {
    const { audience, event } = yield* prepare(body)
    return {
      requestId: yield* FiberRef.get(CurrentRequestId),
      valid: !event.stale,
      stale: event.stale,
      feedId: event.bound.feed.id,
      workspaces: audience.length,
      normalized: event.data
    }
  })

  const send = Effect.fn("Broadcasts.send")(function*(keyId: string, body: BroadcastEnvelope) {
    const requestId = yield* FiberRef.get(CurrentRequestId)
    const { audience, event } = yield* prepare(body)
    const hash = digestOf({
      feedId: event.bound.feed.id,
      eventId: body.eventId,
      occurredAt: body.occurredAt,
      locale: body.locale,
      data: body.data
    })
    const id = newUlid()
    const fresh = yield* repo.insert({
      id,
      eventId: body.eventId,
      bodyHash: hash,
      keyId,
      sourceSlug: event.bound.source.slug,
      formatSlug: event.bound.feed.slug,
      feedId: event.bound.feed.id,
      status: event.stale ? "stale" : "accepted",
      occurredAt: new Date(body.occurredAt),
      locale: body.locale ?? null,
      data: body.data,
      workspaces: audience.length,
      requestId
    })
    let broadcastId = id
    if (!fresh) {
      const earlier = Option.getOrThrow(yield* repo.findByEventId(body.eventId))
      if (earlier.bodyHash !== hash) {
        return yield* new IdempotencyConflict({
          message: `eventId ${body.eventId} was already broadcast (${earlier.id}) with a different body.`,
          details: [detailAt(["eventId"], "already used with a different body")]
        })
      }
      broadcastId = earlier.id
    }
    const copies = yield* Effect.forEach(
      audience,
      (workspaceId) =>
        feeds.land(workspaceId, event, { input: "broadcast", broadcastId }).pipe(
          Effect.map((answer) => ({
            accountId: workspaceId,
            ingestEventId: answer.ingestEventId,
            status: answer.status,
            matched: answer.matched.length
          })),
          // The workspace had used this eventId for an event of its own: that one stands, and this copy is not landed.
          Effect.catchTag(
            "IdempotencyConflict",
            () =>
              Effect.succeed({ accountId: workspaceId, ingestEventId: null, status: "conflict" as const, matched: 0 })
          )
        ),
      { concurrency: "unbounded" }
    )
    return {
      broadcastId,
      requestId,
      eventId: body.eventId,
      status: fresh ? (event.stale ? "stale" as const : "accepted" as const) : "duplicate" as const,
      idempotent: !fresh,
      workspaces: copies
    }
  })

  const find = Effect.fn("Broadcasts.find")(function*(id: string) {
    const row = yield* repo.find(id)
    if (Option.isNone(row)) return yield* new NotFound({ message: `No broadcast ${id}.` })
    const copies = yield* repo.copiesOf(id)
    return {
      broadcast: {
        ...summaryOf(row.value),
        locale: row.value.locale,
        data: row.value.data,
        events: copies.map((copy) => ({
          accountId: copy.workspaceId,
          ingestEventId: copy.ingestEventId,
          status: copy.status,
          jobs: copy.jobs
        }))
      }
    }
  })

  const list = Effect.fn("Broadcasts.list")(function*(page: number, perPage: number) {
    const rows = yield* repo.page(perPage, (page - 1) * perPage)
    return { broadcasts: rows.map(summaryOf), total: yield* repo.count, page, perPage }
  })

  return { validate, send, find, list }
})

export class Broadcasts extends Context.Tag("clipwright/ingest/Broadcasts")<
  Broadcasts,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Broadcasts, make)
}
