import * as http from "node:http"
import { ulid } from "ulid"

export interface SendOptions {
  /** The full URL events are POSTed to. */
  readonly url: string
  readonly key: string
  /** Senders, each with one request in flight at a time over its own kept-alive connection. */
  readonly senders: number
  readonly seconds: number
  /** The JSON body of one event with this (fresh) eventId. */
  readonly body: (eventId: string) => string
}

export interface Sent {
  /** From the first request to the last answer, in seconds. */
  readonly seconds: number
  readonly answers: number
  /** 202 answers whose status is `accepted`. */
  readonly accepted: number
  /** Everything else, by kind: `409`, `202 no_match`, `error ECONNRESET`, … */
  readonly failures: Readonly<Record<string, number>>
  readonly p50Ms: number
  readonly p99Ms: number
  /** The eventId of every accepted answer, in answer order. */
  readonly acceptedEventIds: ReadonlyArray<string>
}

const post = (agent: http.Agent, url: URL, key: string, body: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      agent,
      timeout: 10_000,
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body)
      }
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
      response.on("error", reject)
    })
    request.on("timeout", () => request.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })))
    request.on("error", reject)
    request.end(body)
  })

const statusOf = (text: string): unknown => {
  try {
    return JSON.parse(text)?.status
  } catch {
    return undefined
  }
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1)]!

/**
 * The core of `npm run bench:ingest`: `senders` loops POST events, each a fresh ULID eventId, for `seconds`; each
 * answer is sorted into accepted or a failure and timed from the request's start to the answer's last byte.
 */
export const sendEvents = async (options: SendOptions): Promise<Sent> => {
  const url = new URL(options.url)
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.senders })
  const latencies: Array<number> = []
  const acceptedEventIds: Array<string> = []
  const failures: Record<string, number> = {}
  const fail = (kind: string) => (failures[kind] = (failures[kind] ?? 0) + 1)
  const started = performance.now()
  const end = started + options.seconds * 1000
  const sender = async () => {
    while (performance.now() < end) {
      const eventId = ulid()
      const sent = performance.now()
      try {
        const { status, text } = await post(agent, url, options.key, options.body(eventId))
        latencies.push(performance.now() - sent)
        const said = statusOf(text)
        if (status === 202 && said === "accepted") acceptedEventIds.push(eventId)
        else fail(`${status} ${String(said ?? text.slice(0, 60))}`)
      } catch (error) {
        latencies.push(performance.now() - sent)
        fail(`error ${(error as { code?: string }).code ?? String(error)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: options.senders }, sender))
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  const sorted = Float64Array.from(latencies).sort()
  return {
    seconds,
    answers: latencies.length,
    accepted: acceptedEventIds.length,
    failures,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    acceptedEventIds
  }
}
