import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect } from "effect"
import { detailAt } from "../domain/Errors.js"
import type { EnvelopeInput } from "./Envelope.js"

/**
 * Watches a multipart body go by for its close delimiter (`CRLF--boundary--`, RFC 2046), without taking a byte from
 * the parser: the body is paused before the watcher listens, so it flows only once the parser pipes it, and every
 * chunk then reaches both. The body may open with `--boundary` (no CRLF), so the watch starts as if after a CRLF.
 */
const watchForClose = (incoming: NodeJS.ReadableStream, boundary: string, onUnclosed: () => void) => {
  const delimiter = Buffer.from(`\r\n--${boundary}--`)
  let tail = Buffer.from("\r\n")
  let closed = false
  const onData = (chunk: Buffer | string) => {
    if (closed) return
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk
    const head = bytes.subarray(0, delimiter.length - 1)
    // The delimiter can straddle two chunks: look where the last one's tail meets this one's head, then inside it.
    closed = Buffer.concat([tail, head]).includes(delimiter) || bytes.includes(delimiter)
    const keep = delimiter.length - 1
    tail = Buffer.from(bytes.length >= keep ? bytes.subarray(-keep) : Buffer.concat([tail, bytes]).subarray(-keep))
  }
  const onEnd = () => {
    if (!closed) onUnclosed()
  }
  incoming.pause()
  incoming.on("data", onData)
  incoming.once("end", onEnd)
  return () => {
    incoming.off("data", onData)
    incoming.off("end", onEnd)
  }
}

const UNCLOSED = "The multipart body ended before its closing boundary (--boundary--)."

/**
 * Completes with the refusal once a multipart body has ended without its close delimiter, and never otherwise. The
 * platform's parser waits for more parts forever on such a body (an empty one too), so without this the request
 * would never be answered. Interruptible even where it runs (the server handles requests uninterruptibly, only routes
 * may be interrupted), so a route that answers first ends the watch.
 */
export const unclosedForm = (
  request: HttpServerRequest.HttpServerRequest,
  boundary: string
): Effect.Effect<EnvelopeInput> =>
  Effect.interruptible(Effect.async<EnvelopeInput>((resume) => {
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    const stop = watchForClose(incoming, boundary, () =>
      resume(Effect.succeed({
        code: "schema_validation",
        message: UNCLOSED,
        details: [detailAt([], UNCLOSED, "multipartClose")]
      })))
    return Effect.sync(stop)
  }))
