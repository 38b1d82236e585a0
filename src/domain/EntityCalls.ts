import { ClusterSchema, type Entity } from "@effect/cluster"
import type { Rpc } from "@effect/rpc"
import { Effect } from "effect"
import { Conflict, UpstreamUnavailable } from "./Errors.js"

type Transport = { readonly _tag: "MailboxFull" | "PersistenceError" | "AlreadyProcessingMessage" }

const isTransport = (e: { readonly _tag: string }): e is Transport =>
  e._tag === "MailboxFull" || e._tag === "PersistenceError" || e._tag === "AlreadyProcessingMessage"

/** Cluster transport failures surface as 503 (retry later) rather than as faults; a duplicate in flight is 409. */
export const entityCall = <A, E extends { readonly _tag: string }, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, Transport> | UpstreamUnavailable | Conflict, R> =>
  Effect.catchAll(effect, (e): Effect.Effect<never, Exclude<E, Transport> | UpstreamUnavailable | Conflict> => {
    if (!isTransport(e)) return Effect.fail(e as Exclude<E, Transport>)
    return e._tag === "AlreadyProcessingMessage"
      ? Effect.fail(new Conflict({ message: "A request with this x-request-id is still being processed." }))
      : Effect.fail(new UpstreamUnavailable({ message: "The cluster is busy; retry shortly.", retryAfterSeconds: 2 }))
  })

/**
 * Every entity's messages are persisted, and a caller that stops waiting (a client hanging up, a timeout) never
 * interrupts the handler: @effect/cluster otherwise sends the handler an interrupt, which can land between two of its
 * writes and answers the message, so it is never run again. The fault matrix found a post-list package stored with no
 * timer that way (its client timed out while a frozen node held the list). A handler is stopped only by its own
 * node (a shard handed over, a shutdown), and the message is then run again from the start.
 */
export const durableEntity = <Type extends string, Rpcs extends Rpc.Any>(
  entity: Entity.Entity<Type, Rpcs>
): Entity.Entity<Type, Rpcs> =>
  entity.annotateRpcs(ClusterSchema.Persisted, true).annotateRpcs(ClusterSchema.Uninterruptible, "client")
