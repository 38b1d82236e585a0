import { detailAt, ErrorDetail, toPointer } from "../domain/Errors.js"
import type { EnvelopeInput } from "./Envelope.js"

/** No request shape comes near this; far deeper bodies overflow the stack of the decoder's error formatting. */
export const MAX_JSON_DEPTH = 64

const NUL_ESCAPE = /\\u0000/i
const NUL_MESSAGE = "Text may not contain the NUL character (U+0000)."

const QUOTE = 34
const BACKSLASH = 92
const OPEN = new Set([91, 123])
const CLOSE = new Set([93, 125])

/** One pass over the text, skipping string contents, counting open arrays and objects. */
export const exceedsDepth = (text: string, limit: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (OPEN.has(c)) {
      if (++depth > limit) return true
    } else if (CLOSE.has(c)) depth--
  }
  return false
}

type Segments = ReadonlyArray<string | number>

/** Paths of every string value or object key holding U+0000; the value is at most MAX_JSON_DEPTH deep. */
export const nulPaths = (value: unknown, at: Segments = []): Array<Segments> => {
  if (typeof value === "string") return value.includes("\u0000") ? [at] : []
  if (Array.isArray(value)) return value.flatMap((item, i) => nulPaths(item, [...at, i]))
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => [
      ...(key.includes("\u0000") ? [[...at, key]] : []),
      ...nulPaths(item, [...at, key])
    ])
  }
  return []
}

const parse = (text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

const EMPTY_MESSAGE = "The body is empty but its Content-Type says JSON; to send no body, send no Content-Type."
const NULL_MESSAGE = "The body is JSON null; send the route's object (where the body is optional, send no body)."
const JSON_NULL = /^[ \t\r\n]*null[ \t\r\n]*$/

/**
 * What a JSON body must be refused for before any route sees it. The platform reads an empty body and `null` alike
 * as null, which routes with an optional body take for "no body": so both are refused here, where they still differ.
 * Then nesting the decoder cannot report on, and U+0000, which PostgreSQL text and jsonb can never hold. Other text
 * that is not JSON passes: the route says malformed_json.
 */
export const jsonBodyRefusal = (text: string): EnvelopeInput | undefined => {
  if (text === "") {
    return { code: "malformed_json", message: EMPTY_MESSAGE, details: [detailAt([], EMPTY_MESSAGE, "required")] }
  }
  if (JSON_NULL.test(text)) {
    const detail = new ErrorDetail({
      path: "",
      message: NULL_MESSAGE,
      rule: "type",
      expected: "object",
      received: "null"
    })
    return { code: "schema_validation", message: NULL_MESSAGE, details: [detail] }
  }
  if (exceedsDepth(text, MAX_JSON_DEPTH)) {
    if (!parse(text).ok) return undefined
    const message = `JSON may not be nested deeper than ${MAX_JSON_DEPTH} levels.`
    return { code: "schema_validation", message, details: [detailAt([], message, "maxDepth")] }
  }
  if (!NUL_ESCAPE.test(text)) return undefined
  const parsed = parse(text)
  if (!parsed.ok) return undefined
  // A key and the string under it share one pointer.
  const pointers = [...new Set(nulPaths(parsed.value).map(toPointer))]
  if (pointers.length === 0) return undefined
  const details = pointers.map((path) => new ErrorDetail({ path, message: NUL_MESSAGE, rule: "noNul" }))
  return { code: "schema_validation", message: NUL_MESSAGE, details }
}
