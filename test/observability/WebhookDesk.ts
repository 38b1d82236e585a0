import { expect } from "vitest"
import { content } from "../delivery/HandOverDesk.js"
import { client } from "../support/Client.js"
import { MARKET, newEventId } from "../support/Routes.js"

/**
 * A workspace whose one channel hands its posts over by webhook to `webhookUrl`, on a node (in-process or its own
 * process) at `url`; `api` holds its key, `send` posts one stream event and answers the 202's body.
 */
export const openWebhookDesk = async (url: string, adminToken: string, webhookUrl: string) => {
  const admin = client({ url }, adminToken)
  const made = await admin.post("/admin/workspaces", { name: "Watched" })
  expect(made.status, made.text).toBe(201)
  const accountId = made.body.accountId as string
  expect((await admin.put(`/admin/workspaces/${accountId}/webhook`, { url: webhookUrl })).status).toBe(200)
  const key = await admin.post(`/admin/workspaces/${accountId}/keys`, { scopes: ["*"] })
  expect(key.status, key.text).toBe(201)
  const api = client({ url }, key.body.apiKey)
  expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const stream = await api.post("/v1/streams", { name: "Prices", templateId: MARKET })
  expect(stream.status, stream.text).toBe(201)
  const channel = await api.post("/v1/channels", {
    name: "Shorts",
    surface: "youtube-shorts",
    deliverByWebhook: true,
    deliverByEmail: false
  })
  expect(channel.status, channel.text).toBe(201)
  const subscribed = await api.post(`/v1/channels/${channel.body.channel.id}/subscriptions`, {
    kind: "STREAM",
    streamId: stream.body.stream.id,
    templateVariant: "compact"
  })
  expect(subscribed.status, subscribed.text).toBe(201)
  return {
    api,
    accountId,
    send: async () => {
      const sent = await api.post("/v1/stream", {
        streamId: stream.body.stream.id,
        eventId: newEventId(),
        occurredAt: new Date().toISOString(),
        data: content
      })
      expect(sent.status, sent.text).toBe(202)
      return sent.body as { ingestEventId: string }
    }
  }
}
