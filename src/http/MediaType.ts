import type { HttpServerRequest } from "@effect/platform"
import { detailAt } from "../domain/Errors.js"
import type { EnvelopeInput } from "./Envelope.js"

export interface MediaType {
  /** `type/subtype`, lower case. */
  readonly essence: string
  /** Parameter names lower case, values unquoted. */
  readonly parameters: ReadonlyMap<string, string>
}

/** RFC 9110 media type: `type/subtype` then `; name=value` pairs, a value quoted or not. */
export const parseMediaType = (header: string): MediaType => {
  const [head = "", ...rest] = header.split(";")
  const parameters = new Map<string, string>()
  for (const pair of rest) {
    const at = pair.indexOf("=")
    if (at < 0) continue
    const value = pair.slice(at + 1).trim()
    const unquoted = value.length >= 2 && value.startsWith("\"") && value.endsWith("\"") ? value.slice(1, -1) : value
    parameters.set(pair.slice(0, at).trim().toLowerCase(), unquoted)
  }
  return { essence: head.trim().toLowerCase(), parameters }
}

export const JSON_TYPE = "application/json"
export const FORM_TYPE = "multipart/form-data"
/** A browser's plain form, which only the console's pages send and only its routes read. */
export const URLENCODED_TYPE = "application/x-www-form-urlencoded"
const CONSOLE = /^\/console(\/|$|\?)/

/** The only methods whose bodies the API reads (no route takes a body on DELETE). */
export const takesBody = (method: string) => method === "POST" || method === "PUT" || method === "PATCH"

/** RFC 9112: a body is there when its length is above zero or it comes in chunks. */
export const hasBody = (request: HttpServerRequest.HttpServerRequest) =>
  takesBody(request.method) &&
  (Number(request.headers["content-length"] ?? "0") > 0 || request.headers["transfer-encoding"] !== undefined)

export const mediaTypeOf = (request: HttpServerRequest.HttpServerRequest): MediaType | undefined => {
  const header = request.headers["content-type"]
  return header === undefined || header.trim() === "" ? undefined : parseMediaType(header)
}

/** RFC 2046: 1 to 70 characters, so a parser can always find it. */
export const boundaryOf = (type: MediaType): string | undefined => {
  const boundary = type.parameters.get("boundary")
  return boundary !== undefined && boundary.length >= 1 && boundary.length <= 70 ? boundary : undefined
}

/** The WHATWG Encoding labels of UTF-8 a client is likely to send. */
const UTF8_LABELS = new Set(["utf-8", "utf8"])

const SEND = "send application/json, or multipart/form-data to a route that takes a file"

const unsupported = (message: string, rule: string): EnvelopeInput => ({
  code: "unsupported_media_type",
  message,
  details: [detailAt([], message, rule)]
})

/** What the client sent, shown back no longer than a reader needs. */
const shown = (value: string) => value.length > 60 ? `${value.slice(0, 60)}…` : value

/**
 * What the Content-Type of a request refuses before any route reads the body. Bodies are JSON (`application/json`,
 * UTF-8: a `charset` other than utf-8 is refused rather than misread; `application/*+json` is not JSON here) or, on
 * the routes that take files and the receipt form, `multipart/form-data` with a boundary. A request without a body
 * needs no Content-Type, so body-less actions (`/delete`, `/approve`) stay plain POSTs.
 */
export const mediaTypeRefusal = (request: HttpServerRequest.HttpServerRequest): EnvelopeInput | undefined => {
  if (!takesBody(request.method)) return undefined
  const type = mediaTypeOf(request)
  if (type === undefined) {
    return hasBody(request) ? unsupported(`A body needs a Content-Type: ${SEND}.`, "contentType") : undefined
  }
  if (type.essence === JSON_TYPE) {
    const charset = type.parameters.get("charset")
    return charset === undefined || UTF8_LABELS.has(charset.toLowerCase())
      ? undefined
      : unsupported(`JSON is read as UTF-8 only; send charset=utf-8 or no charset, not ${shown(charset)}.`, "charset")
  }
  if (type.essence === URLENCODED_TYPE && CONSOLE.test(request.url)) return undefined
  if (type.essence === FORM_TYPE) {
    return boundaryOf(type) !== undefined
      ? undefined
      : unsupported("multipart/form-data needs a boundary parameter of 1 to 70 characters.", "boundary")
  }
  return hasBody(request)
    ? unsupported(`Content-Type ${shown(type.essence)} is not accepted; ${SEND}.`, "contentType")
    : undefined
}
