import { HttpClientError, type HttpClientResponse } from "@effect/platform"
import { Effect } from "effect"
import { httpLayer, makeClient, type NodeClient } from "./Client.js"
import type { Call } from "./Commands.js"

/** What a call comes to: the JSON answer for stdout, or an error envelope for stderr. */
export interface Printed {
  readonly ok: boolean
  readonly text: string
}

const pretty = (text: string) => {
  if (text === "") return "{}"
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return undefined
  }
}

const localError = (code: string, message: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ error: { code, message, ...extra } }, null, 2)

// The client has read the body as bytes to decode it; the response's text would be a second read.
const bodyText = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.map(response.arrayBuffer, (bytes) => new TextDecoder().decode(bytes))

// fetch fails with "fetch failed"; what went wrong ("connect ECONNREFUSED …") is its cause.
const causeMessage = (cause: unknown) =>
  cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause)

const unreachable = (url: string, cause: unknown): Printed => ({
  ok: false,
  text: localError("unreachable", `No answer from ${url}: ${causeMessage(cause)}`)
})

const errorAnswer = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<Printed> => {
  const url = response.request.url
  return bodyText(response).pipe(
    Effect.map((text): Printed => ({
      ok: false,
      text: pretty(text) ?? localError("http_error", `HTTP ${response.status} from ${url}`, {
        status: response.status,
        body: text
      })
    })),
    Effect.catchAll((error) => Effect.succeed(unreachable(url, error.cause)))
  )
}

const unexpected = (message: string, extra: Record<string, unknown> = {}): Printed => ({
  ok: false,
  text: localError("unexpected_answer", message, extra)
})

// A 2xx status the contract does not list fails without a cause; a body that could not be read has one.
const offContract = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<Printed> =>
  bodyText(response).pipe(
    Effect.map((body) =>
      unexpected(`HTTP ${response.status} from ${response.request.url} is not an answer of the contract`, {
        status: response.status,
        body
      })
    ),
    Effect.catchAll((error) => Effect.succeed(unreachable(response.request.url, error.cause)))
  )

/** Runs a call; the node's answer is printed as it sent it, whether the contract calls it a success or an error. */
const printed = (call: Call): Effect.Effect<Printed> =>
  call.pipe(
    Effect.flatMap(([_, response]) => bodyText(response)),
    Effect.map((text): Printed => ({ ok: true, text: pretty(text) ?? text })),
    Effect.catchAll((error) => {
      if (!HttpClientError.isHttpClientError(error)) {
        return Effect.succeed(unexpected(`The answer does not fit the contract: ${error.message}`))
      }
      if (error._tag === "ResponseError" && error.reason === "StatusCode") return errorAnswer(error.response)
      if (error._tag === "ResponseError" && error.reason === "Decode" && error.cause === undefined) {
        return offContract(error.response)
      }
      return Effect.succeed(unreachable(error.request.url, error.cause))
    })
  )

/** Builds the contract's client for the node and makes one call with it. */
export const send = (
  call: (client: NodeClient) => Call,
  node: { readonly baseUrl: string; readonly token: string | undefined; readonly fetch: typeof globalThis.fetch }
): Promise<Printed> =>
  makeClient(node.baseUrl, node.token).pipe(
    Effect.flatMap((client) => printed(call(client))),
    Effect.provide(httpLayer(node.fetch)),
    Effect.runPromise
  )
