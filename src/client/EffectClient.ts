/**
 * `clipwright/client/effect`: the contract's own client (`HttpApiClient` over `ClipwrightApi`) for Effect programs.
 * It imports the contract and what it is made of (`@effect/platform`, `@effect/sql`'s `Model` schemas, `effect`),
 * nothing that runs a node: no database driver, no cluster, no canvas.
 */
import {
  type HttpApi,
  HttpApiClient,
  type HttpApiGroup,
  HttpClient,
  HttpClientRequest,
  HttpClientResponse
} from "@effect/platform"
import { Effect } from "effect"
import { ClipwrightApi } from "../Api.js"
import { codeByTag } from "../domain/Errors.js"

export interface EffectClientOptions {
  /** The node's address, e.g. `http://localhost:8080`; every path of the contract is relative to it. */
  readonly baseUrl: string
  /** Sent as `Authorization: Bearer …`; left out when undefined (`/health`). */
  readonly apiKey?: string | undefined
  /**
   * Applied to the client that sends (the key and the JSON `Accept` header set), before a failure's envelope is read
   * as the typed error: retries, a timeout, tracing, or `HttpClient.filterStatusOk` to keep failures as responses.
   */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

const tagByCode: Record<string, string> = Object.fromEntries(
  Object.entries(codeByTag).map(([tag, code]) => [code, tag])
)

const isEnvelope = (body: unknown): body is { readonly error: { readonly code: string } } =>
  typeof body === "object" && body !== null && "error" in body && typeof body.error === "object" &&
  body.error !== null && "code" in body.error && typeof body.error.code === "string"

/**
 * The node answers every failure with its envelope, `{ error: { code, message, details, … } }`, while the contract's
 * error schemas are the tagged classes (`{ _tag: "NotFound", message, details }`). Rewriting the one into the other
 * lets `HttpApiClient` decode a failure as the endpoint's typed error. A body that is not an envelope is passed on.
 */
const envelopeAsTaggedError = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.map(response.arrayBuffer, (bytes) => {
    let body: unknown
    try {
      body = JSON.parse(new TextDecoder().decode(bytes))
    } catch {
      body = undefined
    }
    const tag = isEnvelope(body) ? tagByCode[body.error.code] : undefined
    const text = isEnvelope(body) && tag !== undefined ? JSON.stringify({ ...body.error, _tag: tag }) : bytes
    return HttpClientResponse.fromWeb(
      response.request,
      new Response(text, { status: response.status, headers: response.headers })
    )
  })

/**
 * Clients of `api`: `ClipwrightApi`, or a variant of it with the same groups (the operator CLI leaves the bodies'
 * checks to the node).
 */
export const effectClientOf =
  <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(api: HttpApi.HttpApi<Id, Groups, E, R>) =>
  (options: EffectClientOptions) =>
    HttpApiClient.make(api, {
      baseUrl: options.baseUrl,
      transformClient: (client) => {
        const sending = client.pipe(
          HttpClient.mapRequest(HttpClientRequest.acceptJson),
          HttpClient.mapRequest((request) =>
            options.apiKey === undefined ? request : HttpClientRequest.bearerToken(request, options.apiKey)
          )
        )
        return (options.transformClient?.(sending) ?? sending).pipe(
          HttpClient.transformResponse(Effect.flatMap((response) =>
            response.status >= 400 ? envelopeAsTaggedError(response) : Effect.succeed(response)
          ))
        )
      }
    })

/**
 * A client of the whole contract: `client.brands.create({ payload })`, `client.streams.list()`, …; a failure is the
 * endpoint's typed error (`NotFound`, `Conflict`, …, told apart by `_tag`). Needs an `HttpClient`
 * (`FetchHttpClient.layer`).
 */
export const makeEffectClient = effectClientOf(ClipwrightApi)

export type EffectClient = Effect.Effect.Success<ReturnType<typeof makeEffectClient>>
