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

const fromDecodeError = (e: HttpApiError.HttpApiDecodeError): EnvelopeInput => ({
  code: "schema_validation",
  message: e.issues.length === 1 && e.issues[0]
    ? `The request does not fit the expected shape: ${pointerOrBody(e.issues[0].path)} ${e.issues[0].message}`
    : `The request does not fit the expected shape (${e.issues.length} problems).`,
  details: e.issues.map((issue) =>
    new ErrorDetail({ path: toPointer(issue.path), message: issue.message, rule: issue._tag.toLowerCase() })
  )
})

const pointerOrBody = (path: ReadonlyArray<PropertyKey>) => path.length === 0 ? "the body:" : `${toPointer(path)}:`

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
