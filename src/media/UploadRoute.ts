import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Exit } from "effect"
import { PayloadTooLarge, UnsupportedMediaType } from "../domain/Errors.js"
import { drainRest } from "../http/BodyDrain.js"
import { FORM_TYPE, mediaTypeOf } from "../http/MediaType.js"
import { FRAMING_BYTES } from "./MediaApi.js"
import { UPLOAD_CEILING } from "./MediaFile.js"

const MB = 1024 * 1024

/**
 * A file route takes multipart/form-data only: JSON (or anything else) is 415 before a byte is read, and a body
 * announcing more than the ceiling (plus room for the multipart framing) is 413 unread.
 */
export const requireMultipart = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<void, UnsupportedMediaType | PayloadTooLarge> => {
  const type = mediaTypeOf(request)
  if (type?.essence !== FORM_TYPE) {
    return Effect.fail(
      new UnsupportedMediaType({
        message: `This route takes a file: send ${FORM_TYPE} with one file part, not ` +
          (type === undefined ? "a body without Content-Type." : `${type.essence}.`)
      })
    )
  }
  const length = Number(request.headers["content-length"] ?? "0")
  return length > UPLOAD_CEILING + FRAMING_BYTES
    ? Effect.fail(new PayloadTooLarge({ message: `An upload may be at most ${UPLOAD_CEILING / MB} MB.` }))
    : Effect.void
}

/** Whatever an upload refuses, the rest of its body is dropped (see `drainRest`). */
const dropRest = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.sync(() => drainRest(NodeHttpServerRequest.toIncomingMessage(request)))

/** An upload handler: multipart only, and whatever it refuses, the rest of the body is dropped unread. */
export const uploadRoute = <A, E, R>(request: HttpServerRequest.HttpServerRequest, handle: Effect.Effect<A, E, R>) =>
  Effect.zipRight(requireMultipart(request), handle).pipe(
    Effect.onExit((exit) => Exit.isFailure(exit) ? dropRest(request) : Effect.void)
  )
