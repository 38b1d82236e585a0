import { SqlClient, SqlSchema } from "@effect/sql"
import { Clock, Context, Duration, Effect, Layer, Schema } from "effect"
import * as crypto from "node:crypto"

/** The row of `signing_keys` holding the URL-signing secret. */
const URL_KEY_ID = "urls"
const SECRET_BYTES = 32
/** `exp` is whole unix seconds written as `sign` writes them: no sign, no leading zero, at most 12 digits. */
const EXP_PATTERN = /^(0|[1-9]\d{0,11})$/

export interface Signature {
  /** Expiry, unix seconds. */
  readonly exp: number
  /** base64url HMAC-SHA256 of the resource and `exp`. */
  readonly sig: string
}

export interface SignedUrl {
  readonly url: string
  readonly expiresAt: Date
}

/**
 * HMAC-SHA256 signatures that name exactly one resource (such as the path `/v1/assets/<id>/download`) and expire.
 * The secret is shared through PostgreSQL, so any node sharing the database checks what another signed.
 */
export interface SigningService {
  readonly sign: (resource: string, expiresAt: Date) => Signature
  /** False when expired (at `exp` or later), tampered, malformed or signed for another resource. */
  readonly verify: (resource: string, exp: string | number, sig: string, now: Date) => boolean
  /**
   * `publicBaseUrl` + `path` with `exp` and `sig` query parameters, valid for `ttl`. The signed resource is `path`
   * without its query string; the route checks it against the request's path, whatever prefix a proxy adds.
   */
  readonly signedUrl: (publicBaseUrl: string, path: string, ttl: Duration.DurationInput) => Effect.Effect<SignedUrl>
}

/** Unambiguous: `exp` is digits only and comes first, so no resource can shift bytes into it. */
const payload = (resource: string, exp: number) => `v1:${exp}:${resource}`

export const makeSigning = (secret: Uint8Array): SigningService => {
  if (secret.length < SECRET_BYTES) throw new Error(`A signing secret needs at least ${SECRET_BYTES} bytes.`)
  const key = Buffer.from(secret)
  const mac = (resource: string, exp: number) =>
    crypto.createHmac("sha256", key).update(payload(resource, exp)).digest("base64url")

  const sign = (resource: string, expiresAt: Date): Signature => {
    const exp = Math.floor(expiresAt.getTime() / 1000)
    return { exp, sig: mac(resource, exp) }
  }

  const verify = (resource: string, exp: string | number, sig: string, now: Date): boolean => {
    const expText = String(exp)
    if (!EXP_PATTERN.test(expText)) return false
    const expSeconds = Number(expText)
    if (expSeconds * 1000 <= now.getTime()) return false
    // Compare the encoded text, not decoded bytes: base64url decoding skips stray characters.
    const expected = Buffer.from(mac(resource, expSeconds))
    const given = Buffer.from(sig)
    return given.length === expected.length && crypto.timingSafeEqual(given, expected)
  }

  const signedUrl = (publicBaseUrl: string, path: string, ttl: Duration.DurationInput) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const queryAt = path.indexOf("?")
      const resource = queryAt === -1 ? path : path.slice(0, queryAt)
      const { exp, sig } = sign(resource, new Date(now + Duration.toMillis(ttl)))
      const url = new URL(publicBaseUrl.replace(/\/+$/, "") + path)
      url.searchParams.set("exp", String(exp))
      url.searchParams.set("sig", sig)
      return { url: url.toString(), expiresAt: new Date(exp * 1000) }
    })

  return { sign, verify, signedUrl }
}

/**
 * Writes a fresh secret unless one is there, then reads back whichever won: nodes starting together agree.
 */
const loadSecret = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const fresh = crypto.randomBytes(SECRET_BYTES).toString("base64url")
  yield* sql`INSERT INTO signing_keys (id, secret) VALUES (${URL_KEY_ID}, ${fresh}) ON CONFLICT (id) DO NOTHING`
  const row = yield* SqlSchema.single({
    Request: Schema.String,
    Result: Schema.Struct({ secret: Schema.String }),
    execute: (id) => sql`SELECT secret FROM signing_keys WHERE id = ${id}`
  })(URL_KEY_ID)
  return Buffer.from(row.secret, "base64url")
}).pipe(Effect.orDie, Effect.withSpan("Signing.loadSecret"))

export class Signing extends Context.Tag("clipwright/storage/Signing")<Signing, SigningService>() {
  /** The secret from `signing_keys` (created on first start). */
  static readonly layer = Layer.effect(Signing, Effect.map(loadSecret, makeSigning))
  /** A fixed secret (tests, tools). */
  static readonly layerSecret = (secret: Uint8Array) => Layer.sync(Signing, () => makeSigning(secret))
}
