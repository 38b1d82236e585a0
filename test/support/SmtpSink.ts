import { Effect } from "effect"
import { type ParsedMail, simpleParser } from "mailparser"
import type { AddressInfo } from "node:net"
import { SMTPServer, type SMTPServerDataStream } from "smtp-server"

/** A message the sink took: as parsed (cid links kept), with its SMTP envelope and its bytes as received. */
export interface SinkMessage extends ParsedMail {
  readonly envelope: { readonly from: string | null; readonly to: ReadonlyArray<string> }
  readonly raw: Buffer
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, for `SMTP_URL`. */
  readonly url: string
  /** Messages taken, in order of arrival. */
  readonly messages: ReadonlyArray<SinkMessage>
  /** Messages answered with 550 while refusing. */
  readonly refusals: () => number
  /** While on, every message is answered `550` after its data is read. */
  readonly refuse: (on: boolean) => void
  /** Every message waits this long before its answer (0: none). */
  readonly answerAfter: (ms: number) => void
  /** Resolves once `n` messages were taken; rejects after `timeoutMs`. */
  readonly waitFor: (n: number, timeoutMs?: number) => Promise<ReadonlyArray<SinkMessage>>
  /** Resolves once `n` messages were refused; rejects after `timeoutMs`. */
  readonly waitForRefusals: (n: number, timeoutMs?: number) => Promise<void>
  readonly stop: () => Promise<void>
}

const readAll = async (stream: SMTPServerDataStream) => {
  const chunks: Array<Buffer> = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** A real SMTP server on loopback (no TLS, any or no login) that keeps what it is sent. */
export const startSmtpSink = async (): Promise<SmtpSink> => {
  const messages: Array<SinkMessage> = []
  let refusing = false
  let answerDelayMs = 0
  let refused = 0
  const waiters = new Set<() => void>()
  const changed = () => {
    for (const check of [...waiters]) check()
  }

  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 500,
    onAuth: (_auth, _session, callback) => callback(null, { user: "test" }),
    onData: (stream, session, callback) => {
      readAll(stream).then(async (raw) => {
        if (answerDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, answerDelayMs))
        if (refusing) {
          refused++
          changed()
          return callback(Object.assign(new Error("Refused by the test sink"), { responseCode: 550 }))
        }
        const parsed = await simpleParser(raw, { keepCidLinks: true })
        const { mailFrom, rcptTo } = session.envelope
        messages.push(Object.assign(parsed, {
          envelope: { from: mailFrom === false ? null : mailFrom.address, to: rcptTo.map((r) => r.address) },
          raw
        }))
        callback(null, "Message taken by the test sink")
        changed()
      }).catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))))
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  // smtp-server reports a client that vanished mid-session (a node killed while it sends) as the server's own `error`;
  // unheard, the second one ended the test process (the fault matrix kills nodes with SMTP sessions open).
  server.on("error", () => {})
  const { port } = server.server.address() as AddressInfo

  const until = (done: () => boolean, what: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return
        waiters.delete(check)
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        const seen = `${messages.length} taken, ${refused} refused`
        reject(new Error(`SMTP sink: ${what} not reached in ${timeoutMs} ms (${seen})`))
      }, timeoutMs)
      waiters.add(check)
      check()
    })

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refusals: () => refused,
    refuse: (on) => {
      refusing = on
    },
    answerAfter: (ms) => {
      answerDelayMs = ms
    },
    waitFor: (n, timeoutMs = 10_000) =>
      until(() => messages.length >= n, `${n} messages`, timeoutMs).then(() => messages),
    waitForRefusals: (n, timeoutMs = 10_000) => until(() => refused >= n, `${n} refusals`, timeoutMs),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** The sink as a scoped resource: started on acquire, stopped when the scope closes. */
export const smtpSink = Effect.acquireRelease(
  Effect.promise(() => startSmtpSink()),
  (sink) => Effect.promise(() => sink.stop())
)
