/**
 * A few lines of `fetch` around clipwright's HTTP API, as an integrator writes them: every call carries the API key,
 * bodies are JSON, and an answer outside 2xx is thrown with the node's error envelope
 * (`{ error: { code, message, details } }`, docs/integrating.md "Errors and retries").
 */
import * as fs from "node:fs"

export class ApiError extends Error {
  override readonly name = "ApiError"
  constructor(readonly status: number, readonly route: string, readonly body: string) {
    super(`${route} answered ${status}: ${body}`)
  }
}

export interface Api {
  readonly get: <A>(route: string) => Promise<A>
  readonly post: <A>(route: string, body?: unknown) => Promise<A>
  /** Saves the answer's bytes (a video, a zip) to a file; answers the file's size. */
  readonly download: (route: string, file: string) => Promise<number>
}

export const makeApi = (baseUrl: string, apiKey: string): Api => {
  const send = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    if (!response.ok) throw new ApiError(response.status, `${method} ${route}`, await response.text())
    return response
  }
  // The answer is taken to have the shape docs/api.md gives the route: plain `fetch` checks nothing of it.
  const json = async <A>(response: Response): Promise<A> => (await response.json()) as A
  return {
    get: async (route) => json(await send("GET", route)),
    post: async (route, body) => json(await send("POST", route, body)),
    download: async (route, file) => {
      const bytes = Buffer.from(await (await send("GET", route)).arrayBuffer())
      fs.writeFileSync(file, bytes)
      return bytes.length
    }
  }
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
