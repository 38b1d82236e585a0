import { type Headers, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option, type Stream } from "effect"
import { BlobStorage, type ByteRange } from "../storage/BlobStorage.js"
import { ifRangeHolds, noneMatch, parseRange, quoteEtag, type RangeRequest } from "../storage/ByteRanges.js"
import { contentDisposition } from "../storage/Disposition.js"
import { BlobNotFound } from "../storage/Errors.js"
import type { ZipArchive } from "../storage/Zip.js"

export { parseRange, type RangeRequest } from "../storage/ByteRanges.js"
export { contentDisposition } from "../storage/Disposition.js"

export interface FileResponseOptions {
  readonly contentType: string
  /** Adds `content-disposition` (with `filename` when given); none by default. */
  readonly disposition?: "inline" | "attachment" | undefined
  readonly filename?: string | undefined
  /** Quoted if it is not already an entity tag (a sha256 hex is fine). */
  readonly etag?: string | undefined
  readonly cacheControl?: string | undefined
  /**
   * Request headers to honour (`range`, `if-range`, `if-none-match`); by default those of the request being served,
   * when there is one.
   */
  readonly requestHeaders?: Headers.Headers | undefined
}

const WHOLE: RangeRequest = { _tag: "Whole" }
const NO_HEADERS = {} as Headers.Headers

/**
 * Bytes of a file of `byteSize` bytes, read through `read`, as 200, 206 (one range, with `content-range`), 416 (empty,
 * `content-range: bytes *\/size`) or 304 (`if-none-match` on the etag). Several ranges in one request are answered
 * with the whole file (200). The body is streamed; nothing is read before the response is written, nor on HEAD.
 */
export const rangedResponse = <E>(
  byteSize: number,
  read: (range?: ByteRange) => Stream.Stream<Uint8Array, E>,
  options: FileResponseOptions
): HttpServerResponse.HttpServerResponse => {
  const etag = options.etag === undefined ? undefined : quoteEtag(options.etag)
  const headers: Record<string, string> = { "accept-ranges": "bytes" }
  if (etag !== undefined) headers["etag"] = etag
  if (options.cacheControl !== undefined) headers["cache-control"] = options.cacheControl
  if (options.disposition !== undefined) {
    headers["content-disposition"] = contentDisposition(options.disposition, options.filename)
  }
  const request = options.requestHeaders ?? NO_HEADERS
  if (etag !== undefined && noneMatch(request["if-none-match"], etag)) {
    return HttpServerResponse.empty({ status: 304, headers })
  }
  const range = ifRangeHolds(request["if-range"], etag) ? parseRange(request["range"], byteSize) : WHOLE
  switch (range._tag) {
    case "Unsatisfiable":
      return HttpServerResponse.empty({ status: 416, headers: { ...headers, "content-range": `bytes */${byteSize}` } })
    case "Partial":
      return HttpServerResponse.stream(read({ start: range.start, end: range.end }), {
        status: 206,
        contentType: options.contentType,
        contentLength: range.end - range.start + 1,
        headers: { ...headers, "content-range": `bytes ${range.start}-${range.end}/${byteSize}` }
      })
    case "Whole":
      return HttpServerResponse.stream(read(), {
        status: 200,
        contentType: options.contentType,
        contentLength: byteSize,
        headers
      })
  }
}

const currentRequestHeaders = Effect.map(
  Effect.serviceOption(HttpServerRequest.HttpServerRequest),
  Option.match({ onNone: () => NO_HEADERS, onSome: (request) => request.headers })
)

/** A stored blob as an HTTP response (see `rangedResponse`); a missing blob fails with `BlobNotFound`. */
export const blobResponse = Effect.fn("FileResponses.blob")(function*(key: string, options: FileResponseOptions) {
  const storage = yield* BlobStorage
  const stat = yield* storage.stat(key)
  if (Option.isNone(stat)) return yield* new BlobNotFound({ key })
  const requestHeaders = options.requestHeaders ?? (yield* currentRequestHeaders)
  return rangedResponse(stat.value.byteSize, (range) => storage.readStream(key, range), { ...options, requestHeaders })
})

/** A zip download: `application/zip`, attachment named `filename`, `content-length` when known, no ranges. */
export const zipResponse = <E>(archive: ZipArchive<E>, filename: string): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.stream(archive.stream, {
    contentType: "application/zip",
    ...Option.match(archive.byteSize, { onNone: () => ({}), onSome: (contentLength) => ({ contentLength }) }),
    headers: { "content-disposition": contentDisposition("attachment", filename), "accept-ranges": "none" }
  })
