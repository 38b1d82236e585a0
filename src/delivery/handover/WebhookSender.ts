import { Context, Effect, Layer } from "effect"
import * as dns from "node:dns"
import * as net from "node:net"
import { Agent, request } from "undici"
import { AppConfig } from "../../Config.js"
import { traceparentOf } from "../../domain/TraceParent.js"
import { blockedReason } from "../../domain/UrlPolicy.js"
import { ANSWER_WITHIN_MS, excerpt } from "../AttemptLimits.js"

/** Read at most this much of an answer (the attempt's record keeps an excerpt). */
const READ_AT_MOST = 64 * 1024

/** How one call went: what the deliveries log shows of it and what the receiver said about the posts. */
export interface CallOutcome {
  readonly ok: boolean
  readonly statusCode: number | null
  readonly error: string | null
  /** A bounded part of the answer. */
  readonly answer: string | null
  /** The whole answer as read (up to 64 KB), for the receipt fields. */
  readonly answerText: string | null
  readonly durationMs: number
}

class BlockedAddress extends Error {
  readonly code = "EBLOCKED"
}

/**
 * The address a name resolves to is checked when the connection is made, on the address actually used, so a public
 * name that resolves to a private address is refused however it resolved when the webhook was set.
 */
const checkedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, options, (error, address, family) => {
    if (error) return callback(error, address as string, family)
    const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address]
    for (const found of addresses) {
      const reason = blockedReason(found)
      if (reason !== undefined) {
        return callback(
          new BlockedAddress(
            `${hostname} resolves to ${found}, a ${reason} address; the service does not call such addresses (ALLOW_PRIVATE_URLS).`
          ),
          address as string,
          family
        )
      }
    }
    callback(null, address as string, family)
  })
}

const readBounded = async (body: AsyncIterable<Uint8Array>) => {
  const chunks: Array<Uint8Array> = []
  let size = 0
  for await (const chunk of body) {
    if (size < READ_AT_MOST) chunks.push(chunk)
    size += chunk.length
  }
  return Buffer.concat(chunks).subarray(0, READ_AT_MOST).toString("utf8")
}

/** CONTRACT "Webhook wire format": a `409` whose error envelope's code is `replayed` means the receiver has it. */
const alreadyHad = (statusCode: number, text: string) => {
  if (statusCode !== 409) return false
  try {
    const parsed: unknown = JSON.parse(text)
    const error = typeof parsed === "object" && parsed !== null ? (parsed as { error?: unknown }).error : undefined
    return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "replayed"
  } catch {
    return false
  }
}

const describe = (error: unknown): string => {
  if (error instanceof BlockedAddress) return `blocked_url: ${error.message}`
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause
    if (cause instanceof BlockedAddress) return `blocked_url: ${cause.message}`
    if (error.name === "TimeoutError" || error.name === "AbortError") {
      return `No answer within ${ANSWER_WITHIN_MS / 1000} s.`
    }
    const code = (error as { code?: string }).code
    const detail = cause instanceof Error ? `: ${cause.message}` : ""
    return `${code ?? error.name}: ${error.message}${detail}`
  }
  return String(error)
}

/** POSTs a delivery's stored bytes with its stored headers to the workspace's webhook address. */
export class WebhookSender extends Context.Tag("clipwright/delivery/handover/WebhookSender")<WebhookSender, {
  readonly post: (
    url: string,
    body: Uint8Array,
    headers: Readonly<Record<string, string>>
  ) => Effect.Effect<CallOutcome>
}>() {
  static readonly layer = Layer.scoped(
    WebhookSender,
    Effect.gen(function*() {
      const { allowPrivateUrls } = yield* AppConfig
      const agent = yield* Effect.acquireRelease(
        Effect.sync(() =>
          new Agent({
            connections: 128,
            keepAliveTimeout: 10_000,
            headersTimeout: ANSWER_WITHIN_MS,
            bodyTimeout: ANSWER_WITHIN_MS,
            connect: allowPrivateUrls ? {} : { lookup: checkedLookup }
          })
        ),
        (agent) => Effect.promise(() => agent.close())
      )

      const call = async (
        url: string,
        body: Uint8Array,
        headers: Readonly<Record<string, string>>
      ): Promise<CallOutcome> => {
        const started = performance.now()
        const took = () => Math.round(performance.now() - started)
        try {
          const host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1")
          const literal = net.isIP(host) !== 0 ? blockedReason(host) : undefined
          if (!allowPrivateUrls && literal !== undefined) {
            throw new BlockedAddress(
              `${host} is a ${literal} address; the service does not call such addresses (ALLOW_PRIVATE_URLS).`
            )
          }
          const answer = await request(url, {
            method: "POST",
            headers: { ...headers },
            body,
            dispatcher: agent,
            signal: AbortSignal.timeout(ANSWER_WITHIN_MS)
          })
          const text = await readBounded(answer.body)
          const ok = (answer.statusCode >= 200 && answer.statusCode < 300) || alreadyHad(answer.statusCode, text)
          return {
            ok,
            statusCode: answer.statusCode,
            error: ok ? null : `The receiver answered ${answer.statusCode}.`,
            answer: excerpt(text),
            answerText: text,
            durationMs: took()
          }
        } catch (error) {
          return {
            ok: false,
            statusCode: null,
            error: describe(error),
            answer: null,
            answerText: null,
            durationMs: took()
          }
        }
      }

      // Each attempt is a client span; its context goes out as `traceparent` beside (not among) the signed headers.
      return {
        post: (url, body, headers) =>
          Effect.flatMap(
            Effect.currentSpan.pipe(Effect.orDie),
            (span) => Effect.promise(() => call(url, body, { ...headers, traceparent: traceparentOf(span) }))
          ).pipe(
            Effect.withSpan("webhook.post", { kind: "client" })
          )
      }
    })
  )
}
