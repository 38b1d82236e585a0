import { HttpApiError, HttpServerError, HttpServerResponse, Multipart } from "@effect/platform"
import { Cause, Effect, FiberRef, Option } from "effect"
import {
  type ApiErrorLike,
  codeByTag,
  type ErrorCode,
  ErrorDetail,
  isApiError,
  statusOf,
  toPointer
} from "../domain/Errors.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { databaseOutage, storeOutage } from "./DatabaseOutage.js"

export interface EnvelopeInput {
  readonly code: ErrorCode
  readonly message: string
  readonly details?: ReadonlyArray<ErrorDetail> | undefined
  readonly retryAfterSeconds?: number | undefined
}

/** Renders the spec's single error envelope; the code decides the status. */
export const envelopeResponse = (errorsBase: string, input: EnvelopeInput) =>
  Effect.map(FiberRef.get(CurrentRequestId), (requestId) => {
    const retry = input.retryAfterSeconds
    return HttpServerResponse.unsafeJson({
      error: {
        type: `${errorsBase}/${input.code}`,
        code: input.code,
        message: input.message,
        requestId,
        details: input.details ?? [],
        ...(retry === undefined ? {} : { retryAfterSeconds: retry })
      }
    }, {
      status: statusOf(input.code),
      headers: retry === undefined ? {} : { "retry-after": String(Math.ceil(retry)) }
    })
  })

const fromApiError = (e: ApiErrorLike): EnvelopeInput => ({
  code: codeByTag[e._tag] ?? "internal",
  message: e.message,
  details: e.details,
  retryAfterSeconds: e.retryAfterSeconds
})

type Issue = HttpApiError.HttpApiDecodeError["issues"][number]

const EXPECTED_ACTUAL = /^Expected (.+?), actual (.*)$/s
const LITERAL = /^(".*"|-?\d[\d.e+-]*n?|true|false|null)$/

/**
 * A union reports one issue per member. On one path, the `Expected X, actual Y` issues become one detail naming
 * every X; "Expected undefined" (the optional field's other member) is dropped when anything else is said.
 */
export const decodeDetails = (issues: ReadonlyArray<Issue>): Array<ErrorDetail> => {
  const meaningful = issues.filter((issue) => !issue.message.startsWith("Expected undefined"))
  const kept = meaningful.length > 0 ? meaningful : issues
  const groups = new Map<string, Array<Issue>>()
  const order: Array<Issue | string> = []
  for (const issue of kept) {
    const match = EXPECTED_ACTUAL.exec(issue.message)
    if (match === null) {
      order.push(issue)
      continue
    }
    const key = JSON.stringify([toPointer(issue.path), match[2]])
    const group = groups.get(key)
    if (group) group.push(issue)
    else {
      groups.set(key, [issue])
      order.push(key)
    }
  }
  return order.map((entry) => {
    const group = typeof entry === "string" ? groups.get(entry)! : [entry]
    return group.length === 1 ? detailOf(group[0]!) : mergedDetail(group)
  })
}

const detailOf = (issue: Issue) =>
  new ErrorDetail({ path: toPointer(issue.path), message: issue.message, rule: issue._tag.toLowerCase() })

const mergedDetail = (group: ReadonlyArray<Issue>) => {
  const matches = group.map((issue) => EXPECTED_ACTUAL.exec(issue.message)!)
  const expected = [...new Set(matches.map((m) => m[1]!))]
  return new ErrorDetail({
    path: toPointer(group[0]!.path),
    message: `Expected one of ${expected.join(" | ")}, actual ${matches[0]![2]}`,
    rule: expected.every((x) => LITERAL.test(x)) ? "enum" : "type"
  })
}

const fromDecodeError = (e: HttpApiError.HttpApiDecodeError): EnvelopeInput => {
  const details = decodeDetails(e.issues)
  return {
    code: "schema_validation",
    message: details.length === 1 && details[0]
      ? `The request does not fit the expected shape: ${pointerOrBody(details[0].path)} ${details[0].message}`
      : `The request does not fit the expected shape (${details.length} problems).`,
    details
  }
}

const pointerOrBody = (pointer: string) => pointer === "" ? "the body:" : `${pointer}:`

const isBodyTooLarge = (e: HttpServerError.RequestError) => /max|exceed|too large/i.test(String(e.cause))

/** The whole body is at fault: its detail points at the document (SPEC "Errors": every 400 names a path). */
const wholeBody = (message: string) => [new ErrorDetail({ path: "", message })]

const fromRequestError = (e: HttpServerError.RequestError): EnvelopeInput => {
  if (isBodyTooLarge(e)) {
    return { code: "payload_too_large", message: "The request body is over this route's size limit." }
  }
  const reason = e.cause instanceof SyntaxError ? e.cause.message : "it could not be read"
  return { code: "malformed_json", message: `The request body is not JSON: ${reason}`, details: wholeBody(reason) }
}

/** A form body past a route's limits (parts, field or file size) is the sender's to fix, never a fault. */
const fromMultipartError = (e: Multipart.MultipartError): EnvelopeInput =>
  e.reason === "Parse" || e.reason === "InternalError"
    ? { code: "schema_validation", message: "The form body could not be read.", details: wholeBody(e.reason) }
    : { code: "payload_too_large", message: `The form body is over this route's limits (${e.reason}).` }

/**
 * The platform's multipart parser throws a TypeError of its own on a part whose header block never ends before the
 * next boundary: the form is unreadable, which is the sender's to fix.
 */
const FORM_PARSER = /@effect[\\/]platform-node-shared[\\/].*multipart\.[cm]?[jt]s/
const isFormParserCrash = (u: unknown) => u instanceof TypeError && FORM_PARSER.test(u.stack ?? "")
const UNENDED_HEADERS = "A part's headers do not end before the next boundary."
const formParserCrash: EnvelopeInput = {
  code: "schema_validation",
  message: `The form body could not be read: ${UNENDED_HEADERS}`,
  details: wholeBody(UNENDED_HEADERS)
}

const classify = (u: unknown): Option.Option<EnvelopeInput> => {
  if (isApiError(u)) return Option.some(fromApiError(u))
  const outage = databaseOutage(u) ?? storeOutage(u)
  if (outage !== undefined) return Option.some(fromApiError(outage))
  if (u instanceof Multipart.MultipartError) return Option.some(fromMultipartError(u))
  if (isFormParserCrash(u)) return Option.some(formParserCrash)
  if (u instanceof HttpApiError.HttpApiDecodeError) return Option.some(fromDecodeError(u))
  if (HttpServerError.isServerError(u)) {
    if (u._tag === "RouteNotFound") {
      return Option.some({ code: "not_found", message: `No route ${u.request.method} ${u.request.url}.` })
    }
    if (u._tag === "RequestError") return Option.some(fromRequestError(u))
  }
  return Option.none()
}

/**
 * A handler interrupted inside the node, not by its client: the platform answers such a cause with an empty 503 it
 * adds to the cause as a defect. Seen when the node or the entity serving the request stops or loses its part of the
 * cluster mid-request (the fault matrix's frozen node); the request may be sent again.
 */
const cutOffInside = (cause: Cause.Cause<unknown>) =>
  Cause.isInterrupted(cause) &&
  Option.exists(Cause.dieOption(cause), (defect) =>
    HttpServerResponse.isServerResponse(defect) && defect.status === 503)

const cutOff: EnvelopeInput = {
  code: "upstream_unavailable",
  message: "The request was cut off inside the service (a node stopping or handing its work over); retry shortly.",
  retryAfterSeconds: 2
}

/** Turns whatever a route failed or died with into the envelope; a real fault is 500 `internal` and leaks nothing. */
export const causeToEnvelope = (errorsBase: string, cause: Cause.Cause<unknown>) => {
  const known = Option.orElse(Cause.failureOption(cause), () => Cause.dieOption(cause)).pipe(Option.flatMap(classify))
  if (Option.isSome(known)) return envelopeResponse(errorsBase, known.value)
  if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
  if (cutOffInside(cause)) {
    return Effect.logWarning("A request was cut off inside the node; answered 503", cause).pipe(
      Effect.zipRight(envelopeResponse(errorsBase, cutOff))
    )
  }
  return Effect.logError("Unhandled fault", cause).pipe(
    Effect.zipRight(envelopeResponse(errorsBase, { code: "internal", message: "Something went wrong on our side." }))
  )
}
