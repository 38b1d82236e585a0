import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../../Config.js"
import { Signing } from "../../storage/Signing.js"
import { ASSET_URL_TTL, assetDownloadPath, CLIP_MIME_TYPE } from "./RenderedClip.js"

/** A rendered clip as views link it: signed download URLs that hold about an hour (SPEC Limits). */
const make = Effect.gen(function*() {
  const signing = yield* Signing
  const { publicBaseUrl } = yield* AppConfig
  const signed = (clipId: string) => signing.signedUrl(publicBaseUrl, assetDownloadPath(clipId), ASSET_URL_TTL)
  return {
    /** `{ id, mimeType, url }`, as job rows and the render log carry it. */
    video: (clipId: string) => Effect.map(signed(clipId), ({ url }) => ({ id: clipId, mimeType: CLIP_MIME_TYPE, url })),
    /** `{ assetId, url, expiresAt }`, as posts and approvals carry it. */
    asset: (clipId: string) =>
      Effect.map(signed(clipId), ({ expiresAt, url }) => ({ assetId: clipId, url, expiresAt: expiresAt.toISOString() }))
  }
})

export class ClipLinks
  extends Context.Tag("clipwright/renders/clips/ClipLinks")<ClipLinks, Effect.Effect.Success<typeof make>>()
{
  /** Brings `Signing` (memoised with its other uses). */
  static readonly layer = Layer.effect(ClipLinks, make).pipe(Layer.provide(Signing.layer))
}
