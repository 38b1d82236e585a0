import {
  HttpApi,
  HttpApiBuilder,
  HttpApp,
  HttpMiddleware,
  HttpServerRequest,
  HttpServerResponse,
  HttpTraceContext
} from "@effect/platform"
import { Effect, Layer, Option, type Tracer } from "effect"
import { AppConfig } from "../Config.js"
import { detailAt } from "../domain/Errors.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { traceparentOf } from "../domain/TraceParent.js"
import { newUlid } from "../domain/Ulid.js"
import { isDeprecatedRoute } from "../domain/Versioning.js"
import { jsonBodyRefusal } from "./BodyGuard.js"
import { readCapped, withText } from "./CappedBody.js"
import { causeToEnvelope, type EnvelopeInput, envelopeResponse } from "./Envelope.js"
import { unclosedForm } from "./FormClosing.js"
import { jsonOnlyRoute } from "./FormRoutes.js"
import { boundaryOf, FORM_TYPE, JSON_TYPE, mediaTypeOf, mediaTypeRefusal, takesBody } from "./MediaType.js"
import { shownPath } from "./SecretPaths.js"

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/
/** Bodies beyond this are refused before they are read; file routes raise it for themselves. */
export const JSON_BODY_LIMIT = 1024 * 1024

/** A JSON body, or what the platform would read as one: the empty body under a JSON Content-Type is null to it. */
const declaresJson = (request: HttpServerRequest.HttpServerRequest) =>
  takesBody(request.method) && mediaTypeOf(request)?.essence === JSON_TYPE

const TOO_LARGE: EnvelopeInput = { code: "payload_too_large", message: "The request body is over 1 MB." }
const BROKEN: EnvelopeInput = { code: "malformed_json", message: "The request body could not be read to its end." }

/** What happens to a request before any route runs: refused here, or passed on (with its JSON body read). */
type Early =
  | { readonly refusal: EnvelopeInput }
  | { readonly request: HttpServerRequest.HttpServerRequest }

/**
 * The refusals decided before any route runs. A JSON body is read here, held to `JSON_BODY_LIMIT` while it streams
 * (a chunked body announces no length), and handed to the route with the request; a body over the limit is 413 before
 * any key is read.
 */
const earlyRefusal = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<Early> => {
  // No id or value of ours holds a NUL, and PostgreSQL refuses text with one: it is refused here, before any route
  // could hand it to SQL (or to an entity, whose message would then fail on every delivery).
  if (/%00/.test(request.url) || request.url.includes("\u0000")) {
    const message = "The address holds a NUL character (%00), which no id or parameter may contain."
    return Effect.succeed({
      refusal: { code: "schema_validation", message, details: [detailAt([], message, "noNul")] }
    })
  }
  const length = Number(request.headers["content-length"] ?? "0")
  if (length > JSON_BODY_LIMIT && mediaTypeOf(request)?.essence !== FORM_TYPE) {
    return Effect.succeed({ refusal: TOO_LARGE })
  }
  const typeRefusal = mediaTypeRefusal(request)
  if (typeRefusal !== undefined) return Effect.succeed({ refusal: typeRefusal })
  if (!declaresJson(request)) return Effect.succeed({ request })
  return Effect.map(readCapped(request, JSON_BODY_LIMIT), (read): Early => {
    if (read._tag === "TooLarge") return { refusal: TOO_LARGE }
    if (read._tag === "Broken") return { refusal: BROKEN }
    const refusal = jsonBodyRefusal(read.text)
    return refusal !== undefined ? { refusal } : { request: withText(request, read.text) }
  })
}

/** A multipart body's boundary, when the request has one to be read. */
const formBoundary = (request: HttpServerRequest.HttpServerRequest) => {
  const type = mediaTypeOf(request)
  return takesBody(request.method) && type?.essence === FORM_TYPE ? boundaryOf(type) : undefined
}

/**
 * Options of the request's server span, which stands in for the platform's tracer middleware (disabled in
 * Server.ts): that one copies and redacts every header into attributes, about 7 % of a small request's CPU. An
 * incoming `traceparent` still makes the span its child.
 */
const serverSpanOptions = (request: HttpServerRequest.HttpServerRequest, pathname: string): Tracer.SpanOptions => {
  const parent = HttpTraceContext.fromHeaders(request.headers)
  return {
    kind: "server",
    captureStackTrace: false,
    attributes: { "http.request.method": request.method, "url.path": shownPath(pathname) },
    ...(Option.isSome(parent) ? { parent: parent.value } : {})
  }
}

/**
 * The outermost layer of every request: its server span, request id (a ULID sent in `x-request-id` is used, and log
 * lines carry it), the trace id in `traceparent`, and the refusals decided before any route runs (413, 415, bodies
 * that are too deep or hold U+0000).
 */
export const requestContext = (errorsBase: string) =>
  HttpMiddleware.make((app) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const sent = request.headers["x-request-id"]
      const requestId = sent !== undefined && ULID.test(sent) ? sent : newUlid()
      const pathname = request.url.split("?", 1)[0] ?? ""
      return Effect.useSpan(`http.server ${request.method}`, serverSpanOptions(request, pathname), (span) => {
        const headers: Record<string, string> = {
          "x-request-id": requestId,
          traceparent: traceparentOf(span),
          ...(isDeprecatedRoute(pathname) ? { deprecation: "true" } : {})
        }
        const stamp = (response: HttpServerResponse.HttpServerResponse) => {
          span.attribute("http.response.status_code", response.status)
          return HttpServerResponse.setHeaders(response, headers)
        }
        // The server writes the response before a serve middleware sees it; a pre-response handler runs first.
        // It only runs when the app runs: the early refusals return before it and stamp themselves.
        const served = Effect.zipRight(
          HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(stamp(response))),
          Effect.flatMap(earlyRefusal(request), (early) =>
            "refusal" in early
              ? Effect.map(envelopeResponse(errorsBase, early.refusal), stamp)
              : Effect.catchAllCause(app, (cause) => causeToEnvelope(errorsBase, cause)).pipe(
                Effect.provideService(HttpServerRequest.HttpServerRequest, early.request)
              ))
        )
        // Log lines get the request id from this FiberRef (observability/Logging.ts).
        return served.pipe(Effect.locally(CurrentRequestId, requestId), Effect.withParentSpan(span))
      })
    })
  )

const FORM_TO_JSON = "This route takes application/json; multipart/form-data is for the routes that take a file."

/**
 * Inside the API: every typed failure, decode error, unknown route or defect becomes the envelope. Forms are judged
 * here, where the contract is known: one sent to a JSON route is 415 unread, and one that ends unclosed is answered
 * whatever route reads it, the route interrupted (the platform's parser would wait for its next part forever). Not in
 * `requestContext`, whose app writes its own answer even when interrupted.
 */
export const ErrorEnvelopeLive = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AppConfig
  const { api } = yield* HttpApi.Api
  const jsonOnly = jsonOnlyRoute(api)
  const errorsBase = `${config.publicBaseUrl}/errors`
  return HttpApiBuilder.middleware((app) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const answered = Effect.catchAllCause(app, (cause) => causeToEnvelope(errorsBase, cause))
      const boundary = formBoundary(request)
      if (boundary === undefined) return answered
      if (jsonOnly(request.method, request.url)) {
        const details = [detailAt([], FORM_TO_JSON, "contentType")]
        return envelopeResponse(errorsBase, { code: "unsupported_media_type", message: FORM_TO_JSON, details })
      }
      const unclosed = Effect.flatMap(
        unclosedForm(request, boundary),
        (refusal) => envelopeResponse(errorsBase, refusal)
      )
      return Effect.raceFirst(answered, unclosed)
    })
  )
}))
