import { FetchHttpClient, HttpApi, type HttpApiGroup, HttpClient } from "@effect/platform"
import { type Effect, Layer, Option, Record, Schema, SchemaAST } from "effect"
import { ClipwrightApi } from "../Api.js"
import { effectClientOf } from "../client/EffectClient.js"

/**
 * The contract with each request body's checks left to the node, so that a value it refuses (an empty name, a limit
 * past the integer column) comes back as the node's own error envelope instead of a local parse error. Sound only for
 * bodies whose type and encoded form agree, as the admin routes' do.
 */
const checkedByNode = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): HttpApi.HttpApi<Id, Groups, E, R> => {
  const groups: Record<string, HttpApiGroup.HttpApiGroup.AnyWithProps> = {}
  HttpApi.reflect(api, {
    onGroup: ({ group }) => {
      groups[group.identifier] = Object.assign(Object.create(group), {
        endpoints: Record.map(group.endpoints, (endpoint) =>
          Option.match(endpoint.payloadSchema, {
            onNone: () => endpoint,
            onSome: (payload) =>
              endpoint.setPayload(
                Schema.make(SchemaAST.annotations(SchemaAST.encodedAST(payload.ast), payload.ast.annotations))
              )
          }))
      })
    },
    onEndpoint: () => {}
  })
  return Object.assign(Object.create(api), { groups })
}

const nodeClient = effectClientOf(checkedByNode(ClipwrightApi))

/**
 * The contract's client for one node (the one `clipwright/client/effect` exports, over `NodeApi`). Any answer outside
 * 2xx fails as a `ResponseError` that still holds the response, so the node's error envelope can be printed as sent.
 */
export const makeClient = (baseUrl: string, token: string | undefined) =>
  nodeClient({
    baseUrl,
    apiKey: token,
    transformClient: (client) =>
      client.pipe(
        HttpClient.filterStatusOk,
        // Nothing exports the CLI's spans; a traceparent would tie the node's request to a trace nobody can see.
        HttpClient.withTracerPropagation(false)
      )
  })

export type NodeClient = Effect.Effect.Success<ReturnType<typeof makeClient>>

const REQUEST_TIMEOUT_MS = 30_000

// The client's own signal only follows interruption; this deadline also covers reading the body.
const withDeadline = (fetch: typeof globalThis.fetch): typeof globalThis.fetch => (input, init) =>
  fetch(input, {
    ...init,
    signal: AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...(init?.signal ? [init.signal] : [])])
  })

/** The HTTP client the contract's client runs on: `fetch` as given (the tests pass their own), with a deadline. */
export const httpLayer = (fetch: typeof globalThis.fetch) =>
  Layer.merge(FetchHttpClient.layer, Layer.succeed(FetchHttpClient.Fetch, withDeadline(fetch)))
