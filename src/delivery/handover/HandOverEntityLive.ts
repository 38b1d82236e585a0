import { Deferred, Effect, Option } from "effect"
import { InvalidStateTransition, NotFound } from "../../domain/Errors.js"
import { withOutageRetries } from "../../sql/OutageRetries.js"
import type { Batch } from "./DeliveryMaker.js"
import { DeliveryMaker } from "./DeliveryMaker.js"
import { DeliveryRepo, type HandOverTarget } from "./DeliveryRepo.js"
import { DeliverySend, type ToSend } from "./DeliverySend.js"
import { type DuePost, DueRepo } from "./DueRepo.js"
import { type DueEvent, HandOverEntity } from "./HandOverEntity.js"
import { PostOutcomes } from "./PostOutcomes.js"

/**
 * SPEC Events rule 2: an event's channels without approval go together, once all are rendered and due (the caller
 * leaves them out until then); each approved post goes on its own.
 */
const batchesOf = (posts: ReadonlyArray<DuePost>, waiting: ReadonlySet<string>): Array<Batch> => {
  const together = new Map<string, Array<DuePost>>()
  const alone: Array<Batch> = []
  for (const post of posts) {
    if (post.approved) alone.push({ event: "post.publish", posts: [post] })
    else if (!waiting.has(post.ingestEventId)) {
      together.set(post.ingestEventId, [...(together.get(post.ingestEventId) ?? []), post])
    }
  }
  return [...[...together.values()].map((group): Batch => ({ event: "post.publish", posts: group })), ...alone]
}

export const HandOverEntityLive = HandOverEntity.toLayer(
  Effect.gen(function*() {
    const due = yield* DueRepo
    const repo = yield* DeliveryRepo
    const maker = yield* DeliveryMaker
    const sender = yield* DeliverySend
    const outcomes = yield* PostOutcomes
    // Deliveries this owner is sending now, each with what opens when its outcome is recorded: a second Due about the
    // same one adds nothing, and a retry timer that comes due meanwhile waits for the outcome rather than being lost.
    const inFlight = new Map<string, Deferred.Deferred<void>>()
    const settled = (deliveryId: string) => {
      const busy = inFlight.get(deliveryId)
      return busy === undefined ? Effect.void : Deferred.await(busy)
    }

    const send = (items: ReadonlyArray<ToSend>, targets?: ReadonlyMap<string, HandOverTarget>) => {
      const mine = items.filter((item) => !inFlight.has(item.delivery.id))
      return Effect.acquireUseRelease(
        Effect.forEach(mine, (item) =>
          Effect.map(Deferred.make<void>(), (done) => {
            inFlight.set(item.delivery.id, done)
            return [item.delivery.id, done] as const
          })),
        () => sender.send(mine, targets),
        (held) =>
          Effect.forEach(held, ([id, done]) => {
            inFlight.delete(id)
            return Deferred.succeed(done, undefined)
          }, { discard: true })
      )
    }

    /**
     * Moves the events' ready posts to PUBLISHING and makes their deliveries, in one transaction; answers what it
     * made and the targets it read.
     */
    const makeDeliveries = (events: ReadonlyArray<DueEvent>) =>
      due.withTransaction(Effect.gen(function*() {
        const posts = yield* due.lockDue(events)
        if (posts.length === 0) return undefined
        const batches = batchesOf(posts, yield* due.waitingEvents(events, posts.map((post) => post.jobId)))
        if (batches.length === 0) return undefined
        yield* due.markPublishing(batches.flatMap((batch) => batch.posts.map((post) => post.jobId)))
        const targets = new Map((yield* repo.targets([...new Set(posts.map((post) => post.workspaceId))]))
          .map((t) => [t.workspaceId as string, t]))
        const made = yield* maker.make(batches, targets, new Date())
        yield* repo.insert(made.rows, made.posts)
        for (const reason of new Set(made.unhandled.map((u) => u.reason))) {
          yield* outcomes.unhandled(made.unhandled.filter((u) => u.reason === reason).map((u) => u.postId), reason)
        }
        return { rows: made.rows, targets }
      })).pipe(Effect.orDie)

    return HandOverEntity.of(withOutageRetries({
      Due: ({ payload }) =>
        Effect.gen(function*() {
          const made = yield* makeDeliveries(payload.events)
          const fresh = made?.rows ?? []
          // Also what an earlier run made and never sent (its node died in between), for the events it left nothing
          // new to make for (the orphan sweep takes any other).
          const madeFor = new Set(fresh.map((d) => d.ingestEventId))
          const quiet = [...new Set(payload.events.map((e) => e.ingestEventId))].filter((id) => !madeFor.has(id))
          const untried = yield* repo.untriedOf(quiet)
          yield* send(
            [...fresh, ...untried].map((delivery) => ({ delivery, attempt: 1, redelivery: false })),
            made?.targets
          )
        }).pipe(Effect.withSpan("HandOver.due", { attributes: { events: payload.events.length } })),

      Attempt: ({ payload }) =>
        Effect.gen(function*() {
          // Sent before its first outcome was recorded (the timer is stored first): read the delivery after that.
          yield* settled(payload.deliveryId)
          const found = yield* repo.find(payload.workspaceId, payload.deliveryId)
          if (Option.isNone(found)) return
          const delivery = found.value
          if (delivery.state !== "PENDING" && delivery.state !== "RETRYING") return
          yield* send([{ delivery, attempt: payload.attempt, redelivery: false }])
        }).pipe(
          Effect.withSpan("HandOver.attempt", {
            attributes: { deliveryId: payload.deliveryId, attempt: payload.attempt }
          })
        ),

      Redeliver: ({ payload }) =>
        Effect.gen(function*() {
          // An attempt of it being sent now ends first: its outcome decides whether there is anything to send again.
          yield* settled(payload.deliveryId)
          const found = yield* repo.find(payload.workspaceId, payload.deliveryId)
          if (Option.isNone(found)) return yield* new NotFound({ message: `No delivery ${payload.deliveryId}.` })
          const delivery = found.value
          if (delivery.state !== "DEAD" && delivery.state !== "RETRYING") {
            return yield* new InvalidStateTransition({
              message:
                `Delivery ${delivery.id} is ${delivery.state}: only a dead or retrying delivery can be redelivered.`
            })
          }
          const states = yield* send([{ delivery, attempt: delivery.attempt, redelivery: true }])
          return { state: states.get(delivery.id) ?? delivery.state }
        }).pipe(Effect.withSpan("HandOver.redeliver", { attributes: { deliveryId: payload.deliveryId } }))
    }))
  }),
  { concurrency: 16 }
)
