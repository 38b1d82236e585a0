import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Deferred, Effect, Exit, Layer, Metric, Queue, Schedule, Schema } from "effect"
import { AppConfig } from "../../Config.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { newUlid } from "../../domain/Ulid.js"
import { renderQueueWait, withTags } from "../../observability/Metrics.js"
import { type Claimed, RenderQueue } from "../RenderQueue.js"
import { LIVE_WINDOW_SECONDS } from "../RenderQueueOrder.js"

/**
 * How often the slots are dealt again with no event here to wake them: a render put in line on another node, or
 * drawn to its end by another node's slot while its runner waits here.
 */
const LOOK_AGAIN = "500 millis"
/** How often this node's waiting renders are looked at for a drawer that died, and its own claims for lost ones. */
const LOST_DRAWS_EVERY_MS = 5000

interface Waiting {
  readonly turn: Deferred.Deferred<boolean>
  holding: boolean
}

/**
 * The render slots of this node (RENDER_SLOTS renders drawn at once) and what the cluster offers in total:
 * every node advertises its slots in `render_capacity` and refreshes them while it lives. A free slot goes first to
 * work drawn while someone waits on the request (keyframes, previews), then to the next render in line in the
 * cluster's fair order (RenderQueue.claim), wherever its runner lives: a render whose runner waits on this node is
 * drawn by that runner; any other is handed to `drawnForOthers` (DrawsForOthers.ts draws it here, and its runner,
 * seeing it ended, announces the end). A runner of this node whose render another node drew learns it here too.
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
  const drawnForOthers = yield* Queue.unbounded<Claimed>()
  /** The renders this node's slots draw now, for its own runners or others'. */
  const drawingHere = new Set<string>()
  let lostDrawsAt = 0

  // Renders waiting here that ended meanwhile (drawn by another node, or cancelled) draw nothing. Now and then, the
  // ones a dead node was drawing wait again, and so do this node's claims that no draw here holds.
  const settleWaiting = Effect.gen(function*() {
    if (renders.size > 0) {
      for (const id of yield* queue.ended([...renders.keys()])) {
        const waiting = renders.get(id)
        renders.delete(id)
        if (waiting !== undefined) yield* Deferred.succeed(waiting.turn, false)
      }
    }
    if (Date.now() - lostDrawsAt < LOST_DRAWS_EVERY_MS) return
    lostDrawsAt = Date.now()
    yield* queue.fromDeadNodes([...renders.keys()])
    if (slots > 0) yield* queue.strays(nodeId, [...drawingHere])
  })

  const deal = Effect.gen(function*() {
    while (busy < pool && direct.length > 0) {
      busy++
      yield* Deferred.succeed(direct.shift()!, undefined)
    }
    yield* settleWaiting
    if (slots === 0 || busy >= pool) return
    for (const claimed of yield* queue.claim(nodeId, pool - busy)) {
      busy++
      drawingHere.add(claimed.id)
      yield* Metric.update(withTags(renderQueueWait, { workspace: claimed.workspaceId }), claimed.waitedSeconds)
      const waiting = renders.get(claimed.id)
      if (waiting === undefined) {
        // Its runner is on another node, or stopped waiting here while the claim ran: drawn here all the same.
        yield* Queue.offer(drawnForOthers, claimed)
        continue
      }
      waiting.holding = true
      renders.delete(claimed.id)
      yield* Deferred.succeed(waiting.turn, true)
    }
  })
  // Once per outage, not at every look: the slots are dealt again every LOOK_AGAIN until the database answers.
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
      )
    ),
    Effect.forever,
    Effect.forkScoped
  )

  /** Frees a slot; `renderJobId` names the render it drew, if it drew one. */
  const release = (renderJobId?: string) =>
    Effect.suspend(() => {
      busy--
      if (renderJobId !== undefined) drawingHere.delete(renderJobId)
      return signal
    })

  /** Runs work someone waits on in one of this node's slots, ahead of the queue, waiting for one to free up. */
  const withSlot = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.acquireUseRelease(
      Effect.tap(Deferred.make<void>(), (granted) => Effect.zipRight(Effect.sync(() => direct.push(granted)), signal)),
      (granted) => Effect.zipRight(Deferred.await(granted), effect),
      (granted) =>
        Effect.flatMap(Deferred.isDone(granted), (done) => {
          if (done) return release()
          const at = direct.indexOf(granted)
          if (at >= 0) direct.splice(at, 1)
          return Effect.void
        })
    )

  /**
   * Draws a queued render when its turn comes in the cluster's order and a slot of this node claims it (its row moved
   * to SUBMITTED, drawn by this node); `ended` without a slot when the render ended while it waited, drawn by another
   * node's slot or cancelled. A draw that stops without its render ending puts it back in line.
   */
  const drawInTurn = <A, E, R>(workspaceId: WorkspaceId, renderJobId: string, draw: Effect.Effect<A, E, R>, ended: A) =>
    Effect.acquireUseRelease(
      Effect.gen(function*() {
        yield* queue.line(workspaceId, renderJobId, nodeId, drawingHere.has(renderJobId))
        const waiting: Waiting = { turn: yield* Deferred.make<boolean>(), holding: false }
        renders.set(renderJobId, waiting)
        yield* signal
        return waiting
      }),
      (waiting) => Effect.flatMap(Deferred.await(waiting.turn), (claimed) => (claimed ? draw : Effect.succeed(ended))),
      (waiting, exit) =>
        Effect.suspend(() => {
          if (renders.get(renderJobId) === waiting) renders.delete(renderJobId)
          if (!waiting.holding) return Effect.void
          const freed = release(renderJobId)
          // Not put back (the database away): the runner's run again finds this node's mark stale and lines it up.
          return Exit.isSuccess(exit)
            ? freed
            : Effect.zipRight(freed, Effect.catchAllCause(queue.putBack(renderJobId, nodeId), () => Effect.void))
        })
    )

  return {
    nodeSlots: slots,
    withSlot,
    drawInTurn,
    /**
     * Renders this node's slots claimed for runners elsewhere: each is drawn here (DrawsForOthers, which every node with
     * slots runs), then `release`d by its id.
     */
    drawnForOthers: drawnForOthers as Queue.Dequeue<Claimed>,
    release,
    nodeId,
    /** Renders this node's runners hold waiting for their turn. */
    waitingHere: Effect.sync(() => renders.size),
    clusterSlots: Effect.orDie(Effect.map(clusterSlots(undefined), (r) => r.total))
  }
})

export class RenderCapacity extends Context.Tag("clipwright/renders/allowance/RenderCapacity")<
  RenderCapacity,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.scoped(RenderCapacity, make).pipe(Layer.provideMerge(RenderQueue.layer))
}
