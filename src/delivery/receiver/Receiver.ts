/**
 * The reference receiver: an HTTP server that verifies every delivery, prints the posts it accepts and answers
 * the receipt fields (CONTRACT.md "Readings": `{ posts: [{ id, platformPostId, permalink }] }`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { parseArgs } from "node:util"
import { Webhook } from "standardwebhooks"
import { newUlid } from "../../domain/Ulid.js"
import { SeenFile } from "./SeenFile.js"
import { RecentIds, type VerifyOptions, verifyWebhook } from "./Verify.js"

export interface ReceiverOptions {
  /** The `whsec_…` secret. */
  readonly secret: string
  readonly port: number
  readonly host?: string
  /** Where each accepted post is printed, one line each (default stdout). */
  readonly print?: (line: string) => void
  readonly toleranceSeconds?: number
  /** Keep processed ids in this file (they outlive a restart) rather than the last 10,000 in memory. */
  readonly seenFile?: string
  /** How long the file keeps an id after processing it, in seconds (default 30 days). */
  readonly keepSeenSeconds?: number
  /** Accept redeliveries signed up to this long ago for ids never processed (VerifyOptions); needs `seenFile`. */
  readonly redeliveryWindowSeconds?: number
}

export interface RunningReceiver {
  readonly url: string
  readonly close: () => Promise<void>
}

const ERRORS_BASE = "https://clipwright.dev/errors"
const MAX_BODY_BYTES = 5 * 1024 * 1024
const KEEP_SEEN_SECONDS = 30 * 86_400

const answer = (res: ServerResponse, status: number, body: unknown, requestId: string) => {
  res.writeHead(status, { "content-type": "application/json", "x-request-id": requestId })
  res.end(JSON.stringify(body))
}

const answerError = (res: ServerResponse, status: number, code: string, message: string) => {
  const requestId = newUlid()
  const error = { type: `${ERRORS_BASE}/${code}`, code, message, requestId, details: [] }
  answer(res, status, { error }, requestId)
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer | undefined>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)))
    req.on("error", reject)
  })

const text = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "-")

const postsOf = (data: Record<string, unknown>): ReadonlyArray<Record<string, unknown>> | undefined =>
  Array.isArray(data["posts"])
    ? data["posts"].filter((p): p is Record<string, unknown> => typeof p === "object" && p !== null)
    : undefined

/** Starts the receiver; `port` 0 takes a free one (see `url`). */
export const startReceiver = async (options: ReceiverOptions): Promise<RunningReceiver> => {
  new Webhook(options.secret) // throws now, not on the first delivery, for a secret that is not base64
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`))
  const window = options.redeliveryWindowSeconds ?? 0
  const keep = options.keepSeenSeconds ?? KEEP_SEEN_SECONDS
  if (window > 0 && options.seenFile === undefined) throw new Error("accepting redeliveries needs a seen-id file")
  if (window > keep) throw new Error("the seen-id file must keep ids for longer than the redelivery window")
  const seen = options.seenFile === undefined ? new RecentIds() : new SeenFile(options.seenFile, keep)
  const verifyOptions: VerifyOptions = {
    seen,
    redeliveryWindowSeconds: window,
    ...(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds })
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end()
      return
    }
    const body = await readBody(req)
    if (body === undefined) {
      return answerError(res, 413, "payload_too_large", `The body is over ${MAX_BODY_BYTES} bytes.`)
    }
    const result = verifyWebhook(options.secret, req.headers, body, verifyOptions)
    if (!result.ok) return answerError(res, result.status, result.code, result.message)
    const posts = postsOf(result.event.data)
    if (posts === undefined) print(`${result.event.type} ${result.id}`)
    for (const post of posts ?? []) {
      // clipwright's posts carry `channel: { name, platform, … }`; flat fields are read too.
      const nested = post["channel"]
      const channel = typeof nested === "object" && nested !== null ? nested as Record<string, unknown> : {}
      const name = channel["name"] ?? post["channelName"] ?? post["channelId"]
      const platform = channel["platform"] ?? post["platform"]
      print(
        `${result.event.type} ${text(post["id"])} channel=${text(name)} platform=${text(platform)} title=${
          JSON.stringify(text(post["title"]))
        }`
      )
    }
    const receipts = (posts ?? []).filter((p) => typeof p["id"] === "string").map((p) => ({
      id: p["id"],
      platformPostId: `receiver-${String(p["id"])}`,
      permalink: `https://example.invalid/${String(p["id"])}`
    }))
    answer(res, 200, { posts: receipts }, newUlid())
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) answerError(res, 500, "internal", "The receiver failed on this request.")
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve())
  })
  const address = server.address() as AddressInfo
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

export const RECEIVER_USAGE =
  "clipwright receiver --secret whsec_… --port N [--host 127.0.0.1] [--seen-file PATH [--redelivery-window 7d]]"

const RECEIVER_HELP = `Verifies each webhook delivery (Standard Webhooks), prints the posts it accepts and answers
{ posts: [{ id, platformPostId, permalink }] }. Answers 401 signature_invalid, 401 timestamp_skew (more than
5 minutes from now) and 409 replayed in the error envelope. Runs until SIGINT or SIGTERM.

  --secret whsec_…   the secret the webhook route showed (required)
  --port N           the port (default 8787; 0 takes a free one)
  --host H           the address to listen on (default 127.0.0.1)
  --seen-file PATH   keep processed ids in this file for 30 days, across restarts (default: the last 10,000 in
                     memory, forgotten on restart)
  --redelivery-window D
                     also accept a delivery signed up to D ago (e.g. 7d, 12h) whose id was never processed: a
                     redelivery resends the first attempt's signature. Needs --seen-file; at most 30d. Anyone who
                     captured a request can replay it within D if the receiver never processed that id.
`

interface ReceiverIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
}

/** `npx clipwright receiver …`: runs until SIGINT or SIGTERM; answers the exit status. */
export const runReceiver = async (argv: ReadonlyArray<string>, io: ReceiverIo): Promise<number> => {
  let secret: string | undefined
  let port: number
  let host: string
  let seenFile: string | undefined
  let redeliveryWindowSeconds = 0
  try {
    const { values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        secret: { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        "seen-file": { type: "string" },
        "redelivery-window": { type: "string" },
        help: { type: "boolean", short: "h" }
      }
    })
    if (values.help === true) {
      io.stdout(`Usage: ${RECEIVER_USAGE}\n\n${RECEIVER_HELP}`)
      return 0
    }
    secret = values.secret
    port = Number(values.port ?? "8787")
    host = values.host ?? "127.0.0.1"
    if (secret === undefined || !secret.startsWith("whsec_")) throw new Error("--secret whsec_… is required")
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port ${values.port} is not a port`)
    seenFile = values["seen-file"]
    const window = values["redelivery-window"]
    if (window !== undefined) {
      const match = /^(\d+)(s|m|h|d)$/.exec(window)
      if (match === null) throw new Error(`--redelivery-window ${window} is not a duration such as 7d or 12h`)
      redeliveryWindowSeconds = Number(match[1]) *
        { s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as "s" | "m" | "h" | "d"]
      if (seenFile === undefined) throw new Error("--redelivery-window needs --seen-file")
      if (redeliveryWindowSeconds > KEEP_SEEN_SECONDS) throw new Error("--redelivery-window is at most 30d")
    }
  } catch (error) {
    io.stderr(
      `clipwright: ${
        error instanceof Error ? error.message.split("\n")[0] : String(error)
      }\n\nUsage: ${RECEIVER_USAGE}\n`
    )
    return 2
  }
  let receiver: RunningReceiver
  try {
    receiver = await startReceiver({
      secret,
      port,
      host,
      print: (line) => io.stdout(`${line}\n`),
      redeliveryWindowSeconds,
      ...(seenFile === undefined ? {} : { seenFile })
    })
  } catch (error) {
    io.stderr(`clipwright: receiver could not start: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
  io.stdout(`listening on ${receiver.url}\n`)
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve)
    process.once("SIGTERM", resolve)
  })
  await receiver.close()
  return 0
}
