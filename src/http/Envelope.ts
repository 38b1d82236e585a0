import { HttpApiError, HttpServerError, HttpServerResponse } from "@effect/platform"
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

const fromRequestError = (e: HttpServerError.RequestError): EnvelopeInput =>
  isBodyTooLarge(e)
    ? { code: "payload_too_large", message: "The request body is over this route's size limit." }
    : e.cause instanceof SyntaxError
    ? { code: "malformed_json", message: `The request body is not JSON: ${e.cause.message}` }
    : { code: "malformed_json", message: "The request body could not be read." }

const classify = (u: unknown): Option.Option<EnvelopeInput> => {
  if (isApiError(u)) return Option.some(fromApiError(u))
  if (u instanceof HttpApiError.HttpApiDecodeError) return Option.some(fromDecodeError(u))
  if (HttpServerError.isServerError(u)) {
    if (u._tag === "RouteNotFound") {
      return Option.some({ code: "not_found", message: `No route ${u.request.method} ${u.request.url}.` })
    }
    if (u._tag === "RequestError") return Option.some(fromRequestError(u))
  }
  return Option.none()
}

/** Turns whatever a route failed or died with into the envelope; a real fault is 500 `internal` and leaks nothing. */
export const causeToEnvelope = (errorsBase: string, cause: Cause.Cause<unknown>) => {
  const known = Option.orElse(Cause.failureOption(cause), () => Cause.dieOption(cause)).pipe(Option.flatMap(classify))
  if (Option.isSome(known)) return envelopeResponse(errorsBase, known.value)
  if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
  return Effect.logError("Unhandled fault", cause).pipe(
    Effect.zipRight(envelopeResponse(errorsBase, { code: "internal", message: "Something went wrong on our side." }))
  )
}
