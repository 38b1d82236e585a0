import {
  HttpApiBuilder,
  HttpApp,
  HttpMiddleware,
  HttpServerRequest,
  HttpServerResponse,
  HttpTraceContext
} from "@effect/platform"
import { Effect, Layer, Option, type Tracer } from "effect"
import { newUlid } from "../domain/Ulid.js"
import { AppConfig } from "../Config.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { isDeprecatedRoute } from "../domain/Versioning.js"
import { jsonBodyRefusal } from "./BodyGuard.js"
import { causeToEnvelope, envelopeResponse, type EnvelopeInput } from "./Envelope.js"

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/
/** Bodies beyond this are refused before they are read; file routes raise it for themselves. */
export const JSON_BODY_LIMIT = 1024 * 1024

const hasBody = (request: HttpServerRequest.HttpServerRequest) => {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "DELETE") return false
  const length = Number(request.headers["content-length"] ?? "0")
  return length > 0 || request.headers["transfer-encoding"] !== undefined
}

const contentType = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["content-type"] ?? "").toLowerCase()

const contentTypeProblem = (request: HttpServerRequest.HttpServerRequest) => {
  const type = contentType(request)
  return hasBody(request) && type !== "" && !type.includes("application/json") && !type.includes("multipart/form-data")
}

/** The platform decodes a body without a content type as JSON too. */
const isJsonBody = (request: HttpServerRequest.HttpServerRequest) => {
  const type = contentType(request)
  return hasBody(request) && (type === "" || type.includes("application/json"))
}

/**
 * The refusals decided before any route runs. The platform caches `request.text`, so reading it here leaves it
 * for the route; a body that cannot be read is left to the route too, which reports it as usual.
 */
const earlyRefusal = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<EnvelopeInput | undefined> => {
  const length = Number(request.headers["content-length"] ?? "0")
  if (length > JSON_BODY_LIMIT && !contentType(request).includes("multipart/form-data")) {
    return Effect.succeed({ code: "payload_too_large", message: "The request body is over 1 MB." })
  }
  if (contentTypeProblem(request)) {
    return Effect.succeed({
      code: "unsupported_media_type",
      message: `Content-Type ${request.headers["content-type"]} is not accepted here; send application/json.`
    })
  }
  if (!isJsonBody(request)) return Effect.succeed(undefined)
  return request.text.pipe(Effect.map(jsonBodyRefusal), Effect.orElseSucceed(() => undefined))
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
    attributes: { "http.request.method": request.method, "url.path": pathname },
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
          traceparent: `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`,
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
          Effect.flatMap(earlyRefusal(request), (refusal) =>
            refusal !== undefined
              ? Effect.map(envelopeResponse(errorsBase, refusal), stamp)
              : Effect.catchAllCause(app, (cause) => causeToEnvelope(errorsBase, cause)))
        )
        // Log lines get the request id from this FiberRef (observability/Logging.ts).
        return served.pipe(Effect.locally(CurrentRequestId, requestId), Effect.withParentSpan(span))
      })
    })
  )

/** Inside the API: every typed failure, decode error, unknown route or defect becomes the envelope. */
export const ErrorEnvelopeLive = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* AppConfig
  const errorsBase = `${config.publicBaseUrl}/errors`
  return HttpApiBuilder.middleware((app) => Effect.catchAllCause(app, (cause) => causeToEnvelope(errorsBase, cause)))
}))

