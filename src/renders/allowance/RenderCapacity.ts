import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schedule, Schema } from "effect"
import { newUlid } from "../../domain/Ulid.js"
import { AppConfig } from "../../Config.js"

/** A node that has not refreshed its entry for this long offers nothing. */
const LIVE_WINDOW_SECONDS = 15

/**
 * The render slots of this node (RENDER_SLOTS renders drawn at once) and what the cluster offers in total:
 * every node advertises its slots in `render_capacity` and refreshes them while it lives.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const nodeId = newUlid()
  const slots = Math.max(0, config.renderSlots)
  const semaphore = yield* Effect.makeSemaphore(Math.max(1, slots))
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
  return {
    nodeSlots: slots,
    /** Runs a render in one of this node's slots, waiting for one to free up. */
    withSlot: <A, E, R>(effect: Effect.Effect<A, E, R>) => semaphore.withPermits(1)(effect),
    clusterSlots: Effect.orDie(Effect.map(clusterSlots(undefined), (r) => r.total))
  }
})

export class RenderCapacity extends Context.Tag("clipwright/services/RenderCapacity")<
  RenderCapacity,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.scoped(RenderCapacity, make)
}
