import { type Duration, Effect, Schedule, type Scope } from "effect"

/**
 * Runs `sweep` in the background every `every` while the scope lives: a net that claims rows nobody else will move
 * (the claims make it safe on every node at once). A failed sweep is logged and the next one goes on; sweeps are
 * kept out of traces (they would be most of them).
 */
export const sweepEvery = <E, R>(
  name: string,
  every: Duration.DurationInput,
  sweep: Effect.Effect<void, E, R>
): Effect.Effect<void, never, R | Scope.Scope> =>
  sweep.pipe(
    Effect.catchAllCause((cause) => Effect.logWarning(`${name}: a sweep failed`, cause)),
    Effect.repeat(Schedule.spaced(every)),
    Effect.delay(every),
    Effect.withTracerEnabled(false),
    Effect.forkScoped,
    Effect.asVoid
  )
