/** Reading a `Range: bytes=…` request header against a file's size (RFC 9110 §14). */

export type RangeRequest =
  /** No Range, or one the server ignores, as RFC 9110 allows: another unit, bad syntax, several ranges. */
  | { readonly _tag: "Whole" }
  /** Inclusive offsets within the file. */
  | { readonly _tag: "Partial"; readonly start: number; readonly end: number }
  /** Well-formed but past the end of the file (or a zero-length suffix, or an empty file). */
  | { readonly _tag: "Unsatisfiable" }

const whole: RangeRequest = { _tag: "Whole" }
const unsatisfiable: RangeRequest = { _tag: "Unsatisfiable" }

/** What follows `bytes =`, split by hand: a pattern of space runs around a lazy one went quadratic on long headers. */
const rangeSpecs = (header: string): string | undefined => {
  const eq = header.indexOf("=")
  return eq !== -1 && header.slice(0, eq).trim().toLowerCase() === "bytes" ? header.slice(eq + 1).trim() : undefined
}

/**
 * `bytes=a-b`, `bytes=a-` and `bytes=-n`; an end past the file is clamped. Several ranges (`bytes=0-1,5-6`) are
 * answered with the whole file (200): a client asking for several accepts that, and no multipart body is built.
 */
export const parseRange = (header: string | undefined, size: number): RangeRequest => {
  if (header === undefined) return whole
  const asked = rangeSpecs(header)
  if (asked === undefined) return whole
  const specs = asked.split(",").map((s) => s.trim()).filter((s) => s !== "")
  if (specs.length !== 1) return whole
  const spec = specs[0]!
  const suffix = /^-(\d+)$/.exec(spec)
  if (suffix !== null) {
    const length = Number(suffix[1])
    if (length === 0 || size === 0) return unsatisfiable
    return { _tag: "Partial", start: Math.max(0, size - length), end: size - 1 }
  }
  const bounded = /^(\d+)-(\d*)$/.exec(spec)
  if (bounded === null) return whole
  const start = Number(bounded[1])
  const end = bounded[2] === "" ? Infinity : Number(bounded[2])
  if (end < start) return whole
  if (start >= size) return unsatisfiable
  return { _tag: "Partial", start, end: Math.min(end, size - 1) }
}

/** `"…"` as an entity tag, unless it is one already (strong or weak). */
export const quoteEtag = (etag: string): string => /^(W\/)?".*"$/.test(etag) ? etag : `"${etag.replace(/"/g, "")}"`

const opaque = (etag: string) => etag.replace(/^W\//, "")

/** `If-None-Match`: weak comparison against any listed tag, or `*`. */
export const noneMatch = (header: string | undefined, etag: string): boolean =>
  header !== undefined &&
  header.split(",").map((t) => t.trim()).some((t) => t === "*" || opaque(t) === opaque(etag))

/** `If-Range` holds only for the same strong tag; a date or a weak tag cannot be checked here, so it does not. */
export const ifRangeHolds = (header: string | undefined, etag: string | undefined): boolean =>
  header === undefined || (etag !== undefined && !etag.startsWith("W/") && header.trim() === etag)
