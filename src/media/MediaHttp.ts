import { HttpApiBuilder, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Exit } from "effect"
import { ClipwrightApi } from "../Api.js"
import { FRAMING_BYTES } from "./MediaApi.js"
import { NotFound, PayloadTooLarge, UnsupportedMediaType } from "../domain/Errors.js"
import { UPLOAD_CEILING } from "./MediaFile.js"
import { CurrentPrincipal } from "../domain/Principal.js"
import { MediaLibrary } from "./MediaLibrary.js"
import { BlobStorage } from "../storage/BlobStorage.js"
import { blobResponse } from "../http/FileResponses.js"

const MB = 1024 * 1024

/**
 * A file route takes multipart/form-data only: JSON (or anything else) is 415 before a byte is read, and a body
 * announcing more than the ceiling (plus room for the multipart framing) is 413 unread.
 */
export const requireMultipart = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<void, UnsupportedMediaType | PayloadTooLarge> => {
  const type = (request.headers["content-type"] ?? "").toLowerCase()
  if (!type.startsWith("multipart/form-data")) {
    return Effect.fail(
      new UnsupportedMediaType({
        message: "This route takes a file: send multipart/form-data with one file part, not " +
          (type === "" ? "a body without Content-Type." : `${type}.`)
      })
    )
  }
  const length = Number(request.headers["content-length"] ?? "0")
  return length > UPLOAD_CEILING + FRAMING_BYTES
    ? Effect.fail(new PayloadTooLarge({ message: `An upload may be at most ${UPLOAD_CEILING / MB} MB.` }))
    : Effect.void
}

/**
 * After a refusal part-way through an upload nothing more is kept, but the rest of the body is read and dropped so
 * the client can finish sending and read the answer (closing at once resets the connection under the client's
 * feet). Past the most any upload may send, the connection is closed instead.
 */
const dropRest = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.sync(() => {
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    if (incoming.readableEnded || incoming.destroyed) return
    let dropped = 0
    incoming.unpipe()
    incoming.on("data", (chunk: Buffer) => {
      dropped += chunk.length
      if (dropped > UPLOAD_CEILING + FRAMING_BYTES) incoming.socket.destroy()
    })
    incoming.resume()
  })

/** An upload handler: multipart only, and whatever it refuses, the rest of the body is dropped unread. */
export const uploadRoute = <A, E, R>(request: HttpServerRequest.HttpServerRequest, handle: Effect.Effect<A, E, R>) =>
  Effect.zipRight(requireMultipart(request), handle).pipe(
    Effect.onExit((exit) => Exit.isFailure(exit) ? dropRest(request) : Effect.void)
  )

/** Pictures and fonts are shown as they are; SVG gets no script and no outside fetches. */
const previewHeaders = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox"
}

export const MediaHttpLive = HttpApiBuilder.group(ClipwrightApi, "media", (handlers) =>
  Effect.gen(function*() {
    const library = yield* MediaLibrary
    return handlers
      .handle("upload", ({ payload, request }) =>
        uploadRoute(request, Effect.flatMap(CurrentPrincipal, (p) => library.upload(p, payload))))
      .handle("list", () => Effect.flatMap(CurrentPrincipal, (p) => library.list(p.accountId)))
      .handle("rename", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) => library.rename(p.accountId, path.id, payload.name)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentPrincipal, (p) => library.remove(p.accountId, path.id)))
      .handle("uses", ({ path }) => Effect.flatMap(CurrentPrincipal, (p) => library.uses(p.accountId, path.id)))
  }))

/** Signed previews: no bearer is read. */
export const MediaPreviewHttpLive = HttpApiBuilder.group(ClipwrightApi, "mediaPreview", (handlers) =>
  Effect.gen(function*() {
    const library = yield* MediaLibrary
    const storage = yield* BlobStorage
    return handlers.handle("preview", ({ path, urlParams }) =>
      library.previewFile(path.id, urlParams.exp ?? "", urlParams.sig ?? "").pipe(
        Effect.flatMap((row) =>
          blobResponse(row.blobKey, {
            contentType: row.mimeType,
            disposition: "inline",
            filename: row.name,
            etag: row.sha256,
            cacheControl: "private, max-age=3600"
          })
        ),
        Effect.map((response) => HttpServerResponse.setHeaders(response, previewHeaders)),
        Effect.provideService(BlobStorage, storage),
        Effect.catchTag("BlobNotFound", () => Effect.fail(new NotFound({ message: `No media file ${path.id}.` })))
      ))
  }))
