import { FiberRefs, HashMap, Logger } from "effect"
import { CurrentRequestId } from "../domain/RequestId.js"

/**
 * Adds `requestId` to every line logged while a request is served. It is read from the request's FiberRef, so the
 * request edge sets one FiberRef instead of also annotating logs (a copy of the fiber's refs on every request).
 */
export const withRequestId = <Output>(logger: Logger.Logger<unknown, Output>) =>
  Logger.mapInputOptions(logger, (options: Logger.Logger.Options<unknown>) => {
    const requestId = FiberRefs.getOrDefault(options.context, CurrentRequestId)
    return requestId === ""
      ? options
      : { ...options, annotations: HashMap.set(options.annotations, "requestId", requestId as unknown) }
  })

/** One JSON object per line on stdout, with the request id where there is one. */
export const JsonLogsLive = Logger.replace(Logger.defaultLogger, Logger.withConsoleLog(withRequestId(Logger.jsonLogger)))
