/**
 * Where data comes in and where posts go out: a stream whose field map turns your events into the template's input,
 * a channel that asks for approval and hands over by webhook and email, and a channel without approval that takes
 * the posts of a post list.
 */
import { type Api, ok } from "../support/api.js"

/** The shipped headline template (`GET /v1/templates` lists them; `GET /v1/formats/template/<id>` shows its input). */
export const TEMPLATE_ID = "tpl_3a7c91e04b5d"

export interface Channels {
  readonly streamId: string
  readonly shortsId: string
  readonly reelsId: string
  readonly queueId: string
}

export const makeChannels = async (api: Api, say: (line: string) => void): Promise<Channels> => {
  // The field map says where each field of your data goes in the template's document: your `title` becomes the
  // clip's headline. Without it an event's data must already be that document (else it comes back `unmapped`).
  const { stream } = await ok(api.POST("/v1/streams", {
    body: { name: "Prices", templateId: TEMPLATE_ID, fieldMap: { "/clipData/headline": { from: "/title" } } }
  }))
  say(`stream Prices (${stream.id}): your "title" becomes the clip's headline`)

  // One surface of a platform (YouTube Shorts: 9:16, English), wearing the workspace's brand. PER_POST: a person
  // approves each post before it is handed over. It is handed over twice: by signed webhook and by email.
  const shorts = await ok(api.POST("/v1/channels", {
    body: {
      name: "Shorts",
      surface: "youtube-shorts",
      approval: "PER_POST",
      deliverByWebhook: true,
      deliverByEmail: true
    }
  }))
  await ok(api.POST("/v1/channels/{id}/subscriptions", {
    params: { path: { id: shorts.channel.id } },
    body: { kind: "STREAM", streamId: stream.id }
  }))
  say(`channel Shorts (${shorts.channel.surfaceLabel}): approval per post, by webhook and email, listens to Prices`)

  // A post list holds posts people write, each firing at its time to the channels subscribed to the list. This
  // channel asks for no approval: its posts go out as soon as they are drawn.
  const reels = await ok(api.POST("/v1/channels", {
    body: { name: "Reels", surface: "instagram-reels", deliverByWebhook: true, deliverByEmail: false }
  }))
  const { queue } = await ok(api.POST("/v1/queues", { body: { name: "Morning" } }))
  await ok(api.POST("/v1/channels/{id}/subscriptions", {
    params: { path: { id: reels.channel.id } },
    body: { kind: "QUEUE", queueId: queue.id }
  }))
  say(`channel Reels (${reels.channel.surfaceLabel}): no approval, by webhook, listens to the post list Morning`)

  return { streamId: stream.id, shortsId: shorts.channel.id, reelsId: reels.channel.id, queueId: queue.id }
}
