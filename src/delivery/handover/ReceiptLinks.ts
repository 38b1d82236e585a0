import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../../Config.js"
import { Signing } from "../../storage/Signing.js"

/** Long enough for a person to publish by hand days after the email came, and to correct the link later. */
export const RECEIPT_TTL = "30 days"

/** The path of a post's receipt URL, and the resource its signature covers. */
export const receiptPath = (postId: string) => `/v1/receipts/${encodeURIComponent(postId)}`

export interface ReceiptLink {
  readonly url: string
  /** ISO 8601, as hand-overs carry it. */
  readonly expiresAt: string
}

const make = Effect.gen(function*() {
  const signing = yield* Signing
  const { publicBaseUrl } = yield* AppConfig
  return {
    /** The signed URL where a post's receiver (or the hand-over email's reader) reports where it was published. */
    linkFor: (postId: string): Effect.Effect<ReceiptLink> =>
      Effect.map(
        signing.signedUrl(publicBaseUrl, receiptPath(postId), RECEIPT_TTL),
        ({ expiresAt, url }) => ({ url, expiresAt: expiresAt.toISOString() })
      )
  }
})

export class ReceiptLinks extends Context.Tag("clipwright/delivery/handover/ReceiptLinks")<
  ReceiptLinks,
  Effect.Effect.Success<typeof make>
>() {
  /** Brings `Signing` (the URL secret in PostgreSQL; memoised with its other uses). */
  static readonly layer = Layer.effect(ReceiptLinks, make).pipe(Layer.provide(Signing.layer))
}
