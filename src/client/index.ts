/**
 * `clipwright/client`: a typed `fetch` client of the HTTP API (`openapi-fetch`), its paths, bodies and answers typed
 * from the OpenAPI document (`OpenApiTypes.ts`, `npm run client:types`). It carries nothing of Effect; Effect
 * programs use `clipwright/client/effect`.
 */
import createClient, { type Client, type ClientOptions } from "openapi-fetch"
import type { components, paths } from "./OpenApiTypes.js"

export type { components, operations, paths } from "./OpenApiTypes.js"

/** What every answer outside 2xx carries: `{ error: { type, code, message, requestId, details[] } }`. */
export type ErrorEnvelope = components["schemas"]["ErrorEnvelope"]

export type ClipwrightClient = Client<paths>

export interface ClipwrightClientOptions extends Omit<ClientOptions, "baseUrl" | "headers"> {
  /** The node's address, e.g. `http://localhost:8080`; every path of the document is relative to it. */
  readonly baseUrl: string
  /** Sent as `Authorization: Bearer …` with every call; left out when undefined (`/health`). */
  readonly apiKey?: string | undefined
  /** Headers of every call besides the key's. */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/**
 * `client.GET("/v1/streams")`, `client.POST("/v1/brands", { body })`, …: each answers `{ data, error, response }`,
 * `data` typed by the route's success, `error` an `ErrorEnvelope`.
 */
export const createClipwrightClient = ({ apiKey, headers, ...options }: ClipwrightClientOptions): ClipwrightClient =>
  createClient<paths>({
    ...options,
    headers: { ...headers, ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }) }
  })
