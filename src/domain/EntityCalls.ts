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
