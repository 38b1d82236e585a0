import { Context, Effect, Layer, Option } from "effect"
import * as fsp from "node:fs/promises"
import * as path from "node:path"
import { createTransport } from "nodemailer"
import { AppConfig } from "../Config.js"
import { newUlid } from "../domain/Ulid.js"

export interface SignInLetter {
  readonly to: string
  readonly link: string
}

const SEND_WITHIN_MS = 30_000

const compose = (from: string, letter: SignInLetter) => ({
  from: `clipwright <${from}>`,
  to: letter.to,
  subject: "Your clipwright sign-in link",
  text: `Sign in to clipwright with this link. It works once, for 15 minutes:\n\n${letter.link}\n\n` +
    "Opening it shows a page with a Continue button; you are signed in when you press it.\n" +
    "If you did not ask to sign in, ignore this email: nobody can use the link without it.\n"
})

/**
 * Sends the sign-in email through `SMTP_URL`, or without it writes it to `DATA_DIR/outbox/sign-in-<id>.eml`, as
 * hand-over emails go. A failure is logged (without the link: it is a credential) and never shown to the asker,
 * whose page must be the same whether or not an email went.
 */
export class SignInMail extends Context.Tag("clipwright/people/SignInMail")<SignInMail, {
  readonly send: (letter: SignInLetter) => Effect.Effect<void>
}>() {
  static readonly layer = Layer.scoped(
    SignInMail,
    Effect.gen(function*() {
      const { dataDir, publicBaseUrl, smtpUrl } = yield* AppConfig
      const from = `clipwright@${new URL(publicBaseUrl).hostname}`
      const transport = yield* Effect.acquireRelease(
        Effect.sync(() =>
          Option.isSome(smtpUrl)
            ? createTransport({ url: smtpUrl.value, pool: true, connectionTimeout: SEND_WITHIN_MS })
            : createTransport({ streamTransport: true, buffer: true })
        ),
        (transport) => Effect.sync(() => transport.close())
      )
      const outbox = path.join(dataDir, "outbox")
      const deliver = async (letter: SignInLetter) => {
        const info = await transport.sendMail(compose(from, letter))
        if (Option.isNone(smtpUrl)) {
          await fsp.mkdir(outbox, { recursive: true })
          await fsp.writeFile(path.join(outbox, `sign-in-${newUlid()}.eml`), info.message as Buffer, { mode: 0o600 })
        }
      }
      const send = Effect.fn("SignInMail.send")(function*(letter: SignInLetter) {
        yield* Effect.tryPromise({ try: () => deliver(letter), catch: (error) => error }).pipe(
          Effect.timeout(SEND_WITHIN_MS),
          Effect.tapError((error) =>
            Effect.logWarning("A sign-in email could not be sent").pipe(
              Effect.annotateLogs({ error: error instanceof Error ? error.message : String(error) })
            )
          ),
          Effect.orElse(() => Effect.void)
        )
      })
      return { send }
    })
  )
}
