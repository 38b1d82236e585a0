import { Context, Effect, Layer } from "effect"
import { surfaceOf } from "../../channels/Surfaces.js"
import { AppConfig } from "../../Config.js"
import { captionsOf } from "../../posts/PostText.js"
import { assetDownloadPath, CLIP_MIME_TYPE } from "../../renders/clips/RenderedClip.js"
import { Signing } from "../../storage/Signing.js"
import type { PostOut } from "../WebhookData.js"
import type { DuePost } from "./DueRepo.js"
import { ReceiptLinks } from "./ReceiptLinks.js"

/**
 * Links in a hand-over hold for a week: its bytes are fixed when it is first signed and every retry (the default
 * schedule runs about 28 hours) resends them unchanged.
 */
export const HANDED_LINK_TTL = "7 days"

/** A due post as hand-over carries it (WebhookData `PostOut`), with signed links to its video and its receipt. */
const make = Effect.gen(function*() {
  const signing = yield* Signing
  const receipts = yield* ReceiptLinks
  const { publicBaseUrl } = yield* AppConfig

  const outOf = (post: DuePost): Effect.Effect<PostOut> =>
    Effect.gen(function*() {
      const asset = post.clipId === null
        ? []
        : [
          yield* Effect.map(
            signing.signedUrl(publicBaseUrl, assetDownloadPath(post.clipId), HANDED_LINK_TTL),
            (link) => ({
              assetId: post.clipId!,
              kind: "video" as const,
              mimeType: CLIP_MIME_TYPE,
              url: link.url,
              expiresAt: link.expiresAt.toISOString()
            })
          )
        ]
      const receipt = yield* receipts.linkFor(post.postId)
      return {
        id: post.postId,
        postGroupId: post.jobId,
        channel: {
          id: post.channelId,
          name: post.channelName,
          platform: post.platform,
          surface: post.surface,
          surfaceLabel: surfaceOf(post.surface)?.label ?? post.surface,
          posting: post.posting
        },
        locale: post.locale,
        ratio: post.ratio,
        title: post.title,
        caption: post.caption,
        captions: captionsOf(post.content, post.locale, post.caption),
        hashtags: post.hashtags,
        scheduledFor: post.scheduledFor.toISOString(),
        origin: post.origin,
        postTitle: post.postTitle,
        assets: asset,
        receipt,
        platformPostId: post.platformPostId,
        permalink: post.permalink
      }
    })

  return { outOf }
})

export class PostOuts
  extends Context.Tag("clipwright/delivery/handover/PostOuts")<PostOuts, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(PostOuts, make).pipe(Layer.provide(Signing.layer))
}
