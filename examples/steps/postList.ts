/**
 * A post written ahead into the post list Morning: it fires at its time to the Reels channel, is drawn and handed
 * over with nobody's help.
 */
import { type Api, ok, pollUntil, printChanges } from "../support/api.js"
import type { Started } from "../support/processes.js"
import { type Channels, TEMPLATE_ID } from "./channels.js"

// `GET /v1/queues` answers every list with its posts; the post's `outcome` counts its jobs, one per channel.
const readPost = async (api: Api, queueId: string, postId: string) =>
  (await ok(api.GET("/v1/queues"))).queues.find((q) => q.id === queueId)?.posts.find((p) => p.id === postId)

/** A post of a post list, typed as the client answers it. */
type ScheduledPost = NonNullable<Awaited<ReturnType<typeof readPost>>>

const progressOf = (post: ScheduledPost) =>
  post.outcome === null
    ? post.state
    : `${post.state}: rendering ${post.outcome.rendering}, rendered ${post.outcome.rendered}, published ${post.outcome.published}`

const finished = (post: ScheduledPost | undefined) =>
  post !== undefined &&
  (post.state === "CANCELLED" ||
    (post.outcome !== null &&
      post.outcome.published + post.outcome.renderFailed + post.outcome.publishFailed > 0))

export const scheduleAndWatch = async (
  api: Api,
  channels: Channels,
  receiver: Started,
  say: (line: string) => void
): Promise<{ readonly firedAt: string; readonly webhookLine: string }> => {
  // A post list's post is the template's document itself (no field map). It fires a few seconds from now; a time
  // more than a minute in the past is refused.
  const scheduledFor = new Date(Date.now() + 5_000).toISOString()
  const { package: scheduled } = await ok(api.POST("/v1/queues/{id}/packages", {
    params: { path: { id: channels.queueId } },
    body: {
      title: "Gold",
      templateId: TEMPLATE_ID,
      templateVariant: "compact",
      scheduledFor,
      data: {
        clipData: { headline: "Gold at a record, again" },
        metaData: { captionMedium: "Gold at a record." }
      }
    }
  }))
  say(`post list Morning: post ${scheduled.id} scheduled for ${scheduledFor}`)

  const show = printChanges((line) => say(`  ${line}`))
  const post = await pollUntil("the post list's post to go out", {
    read: () => readPost(api, channels.queueId, scheduled.id),
    done: finished,
    onEach: (post) => {
      if (post !== undefined) show(progressOf(post))
    },
    timeoutMs: 120_000
  })
  if (post?.outcome?.published !== 1) {
    throw new Error(`the post list's post did not go out: ${post === undefined ? "gone" : progressOf(post)}`)
  }
  say(`fired at ${post.firedAt}`)

  const webhookLine = await receiver.waitForLine(/^post\.publish \S+ channel=Reels /, 60_000)
  say(`the receiver got: ${webhookLine}`)
  return { firedAt: post.firedAt ?? "", webhookLine }
}
