import { Context, Duration, Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import * as fsp from "node:fs/promises"
import * as path from "node:path"
import { createTransport } from "nodemailer"
import { AppConfig } from "../../Config.js"
import { removeQuietly, renameInto, writeFully } from "../../storage/Files.js"
import { ANSWER_WITHIN_MS, excerpt } from "../AttemptLimits.js"

const OUTBOX = "outbox"
/** Delivery ids become file names in the outbox. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/

/** How one send went, as the deliveries log records an attempt. */
export interface MailOutcome {
  readonly ok: boolean
  /** The SMTP reply code when known (250, 550, …). */
  readonly statusCode: number | null
  readonly error: string | null
  readonly answer: string | null
  readonly durationMs: number
}

export interface MailToSend {
  readonly deliveryId: string
  /** Envelope sender and recipients (bare addresses); the headers are in `raw`. */
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: Uint8Array
}

type Attempt = Omit<MailOutcome, "durationMs">

const replyCode = (text: unknown): number | null => {
  const match = typeof text === "string" ? /^([2-5]\d\d)[ -]/.exec(text) : null
  return match === null ? null : Number(match[1])
}

const refusal = (error: unknown): Attempt => {
  if (!(error instanceof Error)) return { ok: false, statusCode: null, error: String(error), answer: null }
  const { code, response, responseCode } = error as { code?: unknown; response?: unknown; responseCode?: unknown }
  const statusCode = typeof responseCode === "number" ? responseCode : replyCode(response)
  return {
    ok: false,
    statusCode,
    error: excerpt(typeof code === "string" ? `${code}: ${error.message}` : error.message),
    answer: typeof response === "string" ? excerpt(response) : null
  }
}

const smtpSender = (url: string) =>
  Effect.gen(function*() {
    const transport = yield* Effect.acquireRelease(
      Effect.sync(() =>
        createTransport({
          url,
          pool: true,
          connectionTimeout: ANSWER_WITHIN_MS,
          greetingTimeout: ANSWER_WITHIN_MS,
          socketTimeout: ANSWER_WITHIN_MS
        })
      ),
      (transport) => Effect.sync(() => transport.close())
    )
    return (mail: MailToSend): Effect.Effect<Attempt> =>
      Effect.tryPromise({
        try: () => transport.sendMail({ envelope: { from: mail.from, to: [...mail.to] }, raw: Buffer.from(mail.raw) }),
        catch: (error) => error
      }).pipe(
        Effect.timeoutFail({
          duration: ANSWER_WITHIN_MS,
          onTimeout: () => new Error(`The SMTP server did not take the message within ${ANSWER_WITHIN_MS / 1000} s.`)
        }),
        Effect.match({
          onFailure: (error) => refusal(error),
          onSuccess: (info): Attempt => ({
            ok: true,
            statusCode: replyCode(info.response) ?? 250,
            error: null,
            answer: typeof info.response === "string" ? excerpt(info.response) : null
          })
        })
      )
  })

const outboxWriter = (dataDir: string) => {
  const dir = path.join(dataDir, OUTBOX)
  // A temporary name then a rename: a reader of the outbox never sees half a message.
  const write = async (deliveryId: string, raw: Uint8Array) => {
    await fsp.mkdir(dir, { recursive: true })
    const temp = path.join(dir, `.${deliveryId}.${randomUUID()}.tmp`)
    try {
      const handle = await fsp.open(temp, "wx")
      try {
        await writeFully(handle, raw)
        await handle.sync()
      } finally {
        await handle.close()
      }
      await renameInto(temp, path.join(dir, `${deliveryId}.eml`))
    } finally {
      await removeQuietly(temp)
    }
  }
  return (mail: MailToSend): Effect.Effect<Attempt> =>
    SAFE_ID.test(mail.deliveryId)
      ? Effect.tryPromise({ try: () => write(mail.deliveryId, mail.raw), catch: (error) => error }).pipe(
        Effect.match({
          onFailure: (error) => refusal(error),
          onSuccess: (): Attempt => ({
            ok: true,
            statusCode: null,
            error: null,
            answer: `written to ${OUTBOX}/${mail.deliveryId}.eml`
          })
        })
      )
      : Effect.succeed({ ok: false, statusCode: null, error: "Unusable delivery id for a file name.", answer: null })
}

/**
 * Hands a composed email to `SMTP_URL` (one pooled connection set for the node's life), or without it writes it to
 * `DATA_DIR/outbox/<deliveryId>.eml`. A refusal, a down server or a full disk is an outcome, never an error.
 */
export class MailTransport extends Context.Tag("clipwright/delivery/email/MailTransport")<MailTransport, {
  readonly send: (mail: MailToSend) => Effect.Effect<MailOutcome>
}>() {
  static readonly layer = Layer.scoped(
    MailTransport,
    Effect.gen(function*() {
      const { dataDir, smtpUrl } = yield* AppConfig
      const attempt = Option.isSome(smtpUrl) ? yield* smtpSender(smtpUrl.value) : outboxWriter(dataDir)
      const send = Effect.fn("MailTransport.send")(function*(mail: MailToSend) {
        yield* Effect.annotateCurrentSpan("delivery.id", mail.deliveryId)
        const [took, outcome] = yield* Effect.timed(attempt(mail))
        return { ...outcome, durationMs: Math.round(Duration.toMillis(took)) } satisfies MailOutcome
      })
      return { send }
    })
  )
}
