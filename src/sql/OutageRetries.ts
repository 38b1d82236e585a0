import { Entity } from "@effect/cluster"
import { Cause, Duration, Effect, Schedule } from "effect"
import { isDatabaseOutage } from "../domain/DatabaseOutage.js"

const outageIn = (cause: Cause.Cause<unknown>) =>
  !Cause.isInterrupted(cause) && [...Cause.defects(cause), ...Cause.failures(cause)].some(isDatabaseOutage)

/** How long an entity's handler waits for the database before it gives up as a fault; and how often it looks. */
const OUTAGE_PATIENCE = Duration.minutes(2)
const lookAgain = Schedule.exponential("250 millis").pipe(
  Schedule.union(Schedule.spaced("5 seconds")),
  Schedule.upTo(OUTAGE_PATIENCE)
)

/**
 * Runs an entity handler again, from the start, while it fails because the database is unavailable. A handler dying
 * with a fault restarts its entity in @effect/cluster, and a second fault during that restart is dropped with its
 * message (the fault matrix saw jobs left ACCEPTED and renders left drawing for good after a PostgreSQL restart).
 * Every handler checks the state it moves from, so running one again is what a redelivery would do anyway.
 */
export const ridingOutOutage = <A, E, R>(handler: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.suspend(() => {
    let warned = false
    return handler.pipe(
      Effect.sandbox,
      Effect.tapError((cause) => {
        if (warned || !outageIn(cause)) return Effect.void
        warned = true
        return Effect.flatMap(
          Effect.serviceOption(Entity.CurrentAddress),
          (address) =>
            Effect.logWarning("The database is unavailable; the handler runs again once it is back").pipe(
              Effect.annotateLogs(
                address._tag === "Some"
                  ? { entityType: address.value.entityType, entityId: address.value.entityId }
                  : {}
              )
            )
        )
      }),
      Effect.retry({ schedule: lookAgain, while: outageIn }),
      Effect.unsandbox
    )
  })

/** Every handler of an entity, riding out a database outage (see `ridingOutOutage`). */
export const withOutageRetries = <H extends Record<string, (...args: ReadonlyArray<never>) => unknown>>(
  handlers: H
): H =>
  Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [name, (...args: ReadonlyArray<never>) => {
      const answer = handler(...args)
      return Effect.isEffect(answer) ? ridingOutOutage(answer) : answer
    }])
  ) as H

/** A write that fails while the database is unavailable, tried again until it is back (within OUTAGE_PATIENCE). */
export const waitingOutOutage = <A, E, R>(write: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.retry(write, { schedule: lookAgain, while: isDatabaseOutage })
