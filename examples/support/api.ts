/**
 * clipwright's HTTP API as an integrator calls it: the typed `fetch` client of `clipwright/client` (docs/client.md),
 * whose paths, bodies and answers are typed from the OpenAPI document, with the workspace's API key on every call.
 * `ok` turns an answer outside 2xx into a thrown error carrying the node's envelope
 * (`{ error: { code, message, requestId, details } }`, docs/integrating.md "Errors and retries").
 */
import { type ClipwrightClient, createClipwrightClient, type ErrorEnvelope } from "clipwright/client"
import * as fs from "node:fs"

export type Api = ClipwrightClient

export const makeApi = (baseUrl: string, apiKey: string): Api => createClipwrightClient({ baseUrl, apiKey })

export class ApiError extends Error {
  override readonly name = "ApiError"
  constructor(readonly status: number, readonly route: string, readonly envelope: ErrorEnvelope | undefined) {
    super(`${route} answered ${status}: ${JSON.stringify(envelope)}`)
  }
}

/** The answer's data; an answer outside 2xx (or one without a body) is thrown as an `ApiError`. */
export const ok = async <A>(
  call: Promise<{ readonly data?: A; readonly error?: ErrorEnvelope; readonly response: Response }>
): Promise<A> => {
  const { data, error, response } = await call
  if (!response.ok || data === undefined) {
    throw new ApiError(response.status, `${new URL(response.url).pathname}`, error)
  }
  return data
}

/** Saves the answer's bytes (a video, a zip) to a file; answers the file's size. */
export const saveTo = async (call: Promise<{ readonly response: Response }>, file: string): Promise<number> => {
  const { response } = await call
  if (!response.ok) throw new ApiError(response.status, new URL(response.url).pathname, undefined)
  const bytes = Buffer.from(await response.arrayBuffer())
  fs.writeFileSync(file, bytes)
  return bytes.length
}

/**
 * Asks `read` every `everyMs` until `done` holds for its answer, calling `onEach` with each answer (to show progress);
 * gives up after `timeoutMs`, naming `what`.
 */
export const pollUntil = async <A>(what: string, options: {
  readonly read: () => Promise<A>
  readonly done: (answer: A) => boolean
  readonly onEach?: (answer: A) => void
  readonly everyMs?: number
  readonly timeoutMs: number
}): Promise<A> => {
  const deadline = Date.now() + options.timeoutMs
  for (;;) {
    const answer = await options.read()
    options.onEach?.(answer)
    if (options.done(answer)) return answer
    if (Date.now() > deadline) throw new Error(`${what}: not within ${Math.round(options.timeoutMs / 1000)} s`)
    await new Promise((r) => setTimeout(r, options.everyMs ?? 500))
  }
}

/** A line printer that prints a value only when it differs from the one before: a progress display for polling. */
export const printChanges = (print: (line: string) => void) => {
  let last: string | undefined
  return (line: string) => {
    if (line !== last) print(line)
    last = line
  }
}
