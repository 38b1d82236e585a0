import { Data, Duration, Effect, Schedule } from "effect"
import { isStoreUnavailable, type StoreUnavailable } from "./Errors.js"

class StoreDown extends Data.TaggedError("StoreDown")<{ readonly defect: StoreUnavailable }> {}

/**
 * Background work (renders, hand-overs) that needs the object store waits it out: `self` runs again every few seconds
 * while it dies `StoreUnavailable`, for up to `within`; past that the defect goes on as it came. `self` must be safe to
 * run again (a render's upload is: an object appears whole or not at all).
 */
export const waitForStore =
  (within: Duration.DurationInput = "10 minutes", every: Duration.DurationInput = "2 seconds") =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    self.pipe(
      Effect.catchAllDefect((defect) =>
        isStoreUnavailable(defect) ? Effect.fail(new StoreDown({ defect })) : Effect.die(defect)
      ),
      Effect.tapError((e) =>
        e instanceof StoreDown ? Effect.logWarning("Waiting for the object store", e.defect.reason) : Effect.void
      ),
      Effect.retry({
        schedule: Schedule.spaced(every).pipe(Schedule.upTo(within)),
        while: (e) => e instanceof StoreDown
      }),
      Effect.catchIf((e): e is StoreDown => e instanceof StoreDown, (e) => Effect.die(e.defect))
    ) as Effect.Effect<A, E, R>
