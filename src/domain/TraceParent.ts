import { Effect, Option, Tracer } from "effect"

const PATTERN = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** W3C `traceparent` of a span. */
export const traceparentOf = (span: { readonly traceId: string; readonly spanId: string; readonly sampled: boolean }) =>
  `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`

/** The current span's `traceparent`, or null outside any span. */
export const currentTraceparent = Effect.map(
  Effect.option(Effect.currentSpan),
  Option.match({
    onNone: () => null,
    onSome: traceparentOf
  })
)

/**
 * Runs `effect` as a continuation of the trace a stored `traceparent` names (an event's request, written with the
 * event): the spans it opens join that trace, so an operator follows one event from ingest to hand-over across nodes
 * and messages. Without one (or with a malformed one) the effect runs as it is.
 */
export const continuingTrace =
  (traceparent: string | null | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
    const match = traceparent == null ? null : PATTERN.exec(traceparent)
    if (match === null) return effect
    const parent = Tracer.externalSpan({ traceId: match[1]!, spanId: match[2]!, sampled: match[3] === "01" })
    return effect.pipe(Effect.withParentSpan(parent), Effect.withTracerEnabled(true))
  }
