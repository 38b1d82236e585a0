import { Duration, Effect, Layer } from "effect"
import { newUlid } from "../../domain/Ulid.js"
import { sweepEvery } from "../../sql/Sweeps.js"
import { ANSWER_WITHIN_MS } from "../AttemptLimits.js"
import { DeliveryRepo } from "./DeliveryRepo.js"
import { DueRepo } from "./DueRepo.js"
import { type DueEvent, HandOverEntity, handOverOwnerOf } from "./HandOverEntity.js"

/** At most this many due jobs per claim; a full claim is followed by the next at once. */
const CLAIM = 400
/** How often every node looks for posts whose time came: the bound on how late a due post starts its hand-over. */
const LOOK_EVERY = Duration.millis(200)
const SEND_TIMEOUT = Duration.seconds(30)
/** A claim whose message never reached its owner (the node died) is claimed again after this. */
const AGAIN_AFTER_SECONDS = 30
/**
 * The safety net: deliveries made this long ago and never tried get their first attempt's timer again. Twice the
 * longest a call may take (15 s), so a first attempt still under way is not taken for lost; the owner makes a timer
 * of one it is sending wait for its outcome anyway. The fault matrix saw a delivery made as PostgreSQL went down wait
 * for this sweep.
 */
const ORPHAN_AFTER_SECONDS = 2 * ANSWER_WITHIN_MS / 1000
const SWEEP_EVERY = Duration.seconds(10)

/**
 * Finds due posts and hands their events to their HandOver owners: any node may claim (`FOR UPDATE SKIP LOCKED`), one
 * persisted message per owner carries all its events of the claim. Due-ness is a query on an index of scheduled jobs
 * rather than a timer message per post, so a burst of due posts costs a few messages, not one each.
 */
export const HandOverDispatcherLive = Layer.scopedDiscard(Effect.gen(function*() {
  const due = yield* DueRepo
  const deliveries = yield* DeliveryRepo
  const handOver = yield* HandOverEntity.client

  const handOut = Effect.gen(function*() {
    const claimed = yield* due.claimDue(CLAIM, AGAIN_AFTER_SECONDS)
    const byOwner = new Map<string, Array<DueEvent>>()
    for (const event of claimed) {
      const owner = handOverOwnerOf(event.ingestEventId)
      byOwner.set(owner, [...(byOwner.get(owner) ?? []), event])
    }
    // Stored, not awaited: waiting for the hand-over itself would hold every next claim behind the slowest receiver.
    yield* Effect.forEach(
      byOwner,
      ([owner, events]) =>
        handOver(owner).Due({ claim: newUlid(), events }, { discard: true }).pipe(
          Effect.timeout(SEND_TIMEOUT),
          Effect.ignore
        ),
      {
        concurrency: "unbounded",
        discard: true
      }
    )
    return claimed.length
  })

  const loop = Effect.gen(function*() {
    const handed = yield* handOut.pipe(
      Effect.catchAllCause((cause) => Effect.as(Effect.logWarning("hand-over dispatcher: a claim failed", cause), 0))
    )
    if (handed < CLAIM) yield* Effect.sleep(LOOK_EVERY)
  }).pipe(Effect.forever, Effect.withTracerEnabled(false))

  const orphans = Effect.gen(function*() {
    const found = yield* deliveries.orphans(ORPHAN_AFTER_SECONDS, 100)
    yield* Effect.forEach(
      found,
      (d) =>
        handOver(d.owner).Attempt({ workspaceId: d.workspaceId, deliveryId: d.id, attempt: 1, at: Date.now() }, {
          discard: true
        })
          .pipe(Effect.ignore),
      { discard: true }
    )
  })

  yield* Effect.forkScoped(loop)
  yield* sweepEvery("hand-over dispatcher's orphan deliveries", SWEEP_EVERY, orphans)
}))
