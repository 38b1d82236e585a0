import { Context, FiberRef, FiberRefs, HashMap, Logger, Option, Tracer } from "effect"
import { CurrentRequestId } from "../domain/RequestId.js"

/**
 * Adds `requestId` to every line logged while a request is served, and `traceId` and `spanId` to every line logged
 * inside a span, so a line leads to its trace (and a webhook call's `traceparent` to its lines). Both are read from
 * the fiber's refs, so the request edge sets one FiberRef instead of also annotating logs (a copy of the fiber's refs
 * on every request).
 */
export const withRequestContext = <Output>(logger: Logger.Logger<unknown, Output>) =>
  Logger.mapInputOptions(logger, (options: Logger.Logger.Options<unknown>) => {
    const requestId = FiberRefs.getOrDefault(options.context, CurrentRequestId)
    const span = Context.getOption(FiberRefs.getOrDefault(options.context, FiberRef.currentContext), Tracer.ParentSpan)
    if (requestId === "" && Option.isNone(span)) return options
    let annotations = options.annotations
    if (requestId !== "") annotations = HashMap.set(annotations, "requestId", requestId as unknown)
    if (Option.isSome(span)) {
      annotations = HashMap.set(
        HashMap.set(annotations, "traceId", span.value.traceId as unknown),
        "spanId",
        span.value.spanId
      )
    }
    return { ...options, annotations }
  })

/** One JSON object per line on stdout, with the request id and trace id where there are some. */
export const JsonLogsLive = Logger.replace(
  Logger.defaultLogger,
  Logger.withConsoleLog(withRequestContext(Logger.jsonLogger))
)
