import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Deferred, Effect, Layer, Metric, Queue, Schedule, Schema } from "effect"
import type { WorkspaceId } from "../../domain/Principal.js"
import { newUlid } from "../../domain/Ulid.js"
import { AppConfig } from "../../Config.js"
import { renderQueueWait, withTags } from "../../observability/Metrics.js"
import { RenderQueue } from "../jobs/RenderQueue.js"

/** A node that has not refreshed its entry for this long offers nothing. */
const LIVE_WINDOW_SECONDS = 15
/** How often the slots are dealt again with no event to wake them (a claim that failed, a render moved elsewhere). */
const LOOK_AGAIN = "1 second"

interface Waiting {
  readonly workspaceId: WorkspaceId
  readonly since: number
  readonly turn: Deferred.Deferred<boolean>
  holding: boolean
}

/**
 * The render slots of this node (RENDER_SLOTS renders drawn at once) and what the cluster offers in total:
 * every node advertises its slots in `render_capacity` and refreshes them while it lives. A free slot goes first to
 * work drawn while someone waits on the request (keyframes, previews), then to the render this node's runners hold
 * that comes first in the cluster's fair order (RenderQueue.claim).
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const queue = yield* RenderQueue
  const nodeId = newUlid()
  const slots = Math.max(0, config.renderSlots)
  const pool = Math.max(1, slots)
  const advertise = sql`INSERT INTO render_capacity (node_id, slots, heartbeat_at) VALUES (${nodeId}, ${slots}, now())
    ON CONFLICT (node_id) DO UPDATE SET slots = excluded.slots, heartbeat_at = now()`.pipe(Effect.orDie)
  yield* advertise
  const clusterSlots = SqlSchema.single({
    Request: Schema.Void,
    Result: Schema.Struct({ total: Schema.Number }),
    execute: () =>
      sql`SELECT coalesce(sum(slots), 0)::int AS total FROM render_capacity
          WHERE heartbeat_at > now() - make_interval(secs => ${LIVE_WINDOW_SECONDS})`
  })
  // The heartbeat outlives a failed refresh (the database down for a moment): a loop ended by one would leave the
  // node offering nothing from then on, and every direct export answered "No renderer is available".
  yield* advertise.pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("render capacity: the heartbeat could not be written", cause)),
    Effect.repeat(Schedule.spaced("5 seconds")),
    Effect.forkScoped
  )
  yield* Effect.addFinalizer(() => Effect.ignore(sql`DELETE FROM render_capacity WHERE node_id = ${nodeId}`))

  let busy = 0
  const renders = new Map<string, Waiting>()
  const direct: Array<Deferred.Deferred<void>> = []
  const wake = yield* Queue.sliding<void>(1)
  const signal = Queue.offer(wake, undefined)

  const deal = Effect.gen(function*() {
    while (busy < pool && direct.length > 0) {
      busy++
      yield* Deferred.succeed(direct.shift()!, undefined)
    }
    if (busy >= pool || renders.size === 0) return
    const claimed = yield* queue.claim([...renders.keys()], pool - busy)
    const now = Date.now()
    for (const { id, workspaceId } of claimed) {
      const waiting = renders.get(id)
      // Its runner stopped waiting while the claim ran: the render waits again when its Start comes back.
      if (waiting === undefined || waiting.holding) continue
      waiting.holding = true
      busy++
      renders.delete(id)
      yield* Metric.update(withTags(renderQueueWait, { workspace: workspaceId }), (now - waiting.since) / 1000)
      yield* Deferred.succeed(waiting.turn, true)
    }
    if (claimed.length === 0) {
      for (const id of yield* queue.ended([...renders.keys()])) {
        const waiting = renders.get(id)
        renders.delete(id)
        if (waiting !== undefined) yield* Deferred.succeed(waiting.turn, false)
      }
    }
  })
  // Once per outage, not once a second: the slots are dealt again every second until the database answers.
  let warned = false
  yield* Queue.take(wake).pipe(
    Effect.timeout(LOOK_AGAIN),
    Effect.ignore,
    Effect.zipRight(deal),
    Effect.tap(() => (warned = false)),
    Effect.catchAllCause((cause) =>
      warned ? Effect.void : Effect.zipRight(
        Effect.sync(() => (warned = true)),
        Effect.logWarning("render slots: the queue could not be read; renders wait until it can", cause)
      )),
    Effect.forever,
    Effect.forkScoped
  )

  const release = Effect.suspend(() => {
    busy--
    return signal
  })

  /** Runs work someone waits on in one of this node's slots, ahead of the queue, waiting for one to free up. */
  const withSlot = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.acquireUseRelease(
      Effect.tap(Deferred.make<void>(), (granted) => Effect.zipRight(Effect.sync(() => direct.push(granted)), signal)),
      (granted) => Effect.zipRight(Deferred.await(granted), effect),
      (granted) =>
        Effect.flatMap(Deferred.isDone(granted), (done) => {
          if (done) return release
          const at = direct.indexOf(granted)
          if (at >= 0) direct.splice(at, 1)
          return Effect.void
        })
    )

  /**
   * Draws a queued render when its turn comes in the cluster's order (its row moved to SUBMITTED by the claim);
   * `ended` without a slot when the render ended while it waited.
   */
  const drawInTurn = <A, E, R>(workspaceId: WorkspaceId, renderJobId: string, draw: Effect.Effect<A, E, R>, ended: A) =>
    Effect.acquireUseRelease(
      Effect.gen(function*() {
        yield* queue.requeue(workspaceId, renderJobId)
        const waiting: Waiting = { workspaceId, since: Date.now(), turn: yield* Deferred.make<boolean>(), holding: false }
        renders.set(renderJobId, waiting)
        yield* signal
        return waiting
      }),
      (waiting) => Effect.flatMap(Deferred.await(waiting.turn), (claimed) => (claimed ? draw : Effect.succeed(ended))),
      (waiting) =>
        Effect.suspend(() => {
          if (renders.get(renderJobId) === waiting) renders.delete(renderJobId)
          return waiting.holding ? release : Effect.void
        })
    )

  return {
    nodeSlots: slots,
    withSlot,
    drawInTurn,
    /** Renders this node's runners hold waiting for their turn. */
    waitingHere: Effect.sync(() => renders.size),
    clusterSlots: Effect.orDie(Effect.map(clusterSlots(undefined), (r) => r.total))
  }
})

export class RenderCapacity extends Context.Tag("clipwright/services/RenderCapacity")<
  RenderCapacity,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.scoped(RenderCapacity, make).pipe(Layer.provideMerge(RenderQueue.layer))
}
