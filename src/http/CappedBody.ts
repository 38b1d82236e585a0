import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect } from "effect"
import { drainRest } from "./BodyDrain.js"

export type CappedRead =
  | { readonly _tag: "Read"; readonly text: string }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Broken" }

/**
 * Reads a body as UTF-8 text, counting bytes as they arrive: past `limit` nothing more is kept (the rest is drained,
 * see `drainRest`) and the answer is `TooLarge` at once. A body without a Content-Length (chunked) is held to the
 * limit this way; the platform's own reader would buffer up to its default (10 MB) and then reset the connection.
 */
export const readCapped = (request: HttpServerRequest.HttpServerRequest, limit: number): Effect.Effect<CappedRead> =>
  Effect.async<CappedRead>((resume) => {
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    const chunks: Array<Buffer> = []
    let bytes = 0
    const stop = () => {
      incoming.off("data", onData)
      incoming.off("end", onEnd)
      incoming.off("error", onError)
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes <= limit) return void chunks.push(chunk)
      stop()
      chunks.length = 0
      drainRest(incoming)
      resume(Effect.succeed({ _tag: "TooLarge" }))
    }
    const onEnd = () => {
      stop()
      resume(Effect.succeed({ _tag: "Read", text: Buffer.concat(chunks).toString("utf8") }))
    }
    const onError = () => {
      stop()
      resume(Effect.succeed({ _tag: "Broken" }))
    }
    incoming.on("data", onData)
    incoming.once("end", onEnd)
    incoming.once("error", onError)
    return Effect.sync(stop)
  })

/**
 * The request as routes see it once its body has been read here: `text` (and `json`, which reads it) answer the text,
 * every other member is the request's own.
 */
export const withText = (
  request: HttpServerRequest.HttpServerRequest,
  text: string
): HttpServerRequest.HttpServerRequest =>
  Object.create(request, { text: { value: Effect.succeed(text), enumerable: false } })
