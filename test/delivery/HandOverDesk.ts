import { expect } from "vitest"
import { admin, client } from "../support/Client.js"
import type { TestNode } from "../support/Node.js"
import { type Rig, useNode } from "../support/Rig.js"
import { MARKET, newEventId } from "../support/Routes.js"

/** An event the market-move template's compact variant renders in a few seconds, with every hand-over fact set. */
export const content = {
  clipData: { headline: "Gold climbs to a record", subline: "Bullion tops $2,400" },
  metaData: {
    title: "Gold at a record",
    captionShort: "Gold: record.",
    captionMedium: "Gold climbed to a record on Tuesday.",
    captionLong: "Gold climbed to a record on Tuesday as the dollar slid for a third day.",
    hashtags: ["gold", "markets"]
  }
}

export type Api = ReturnType<typeof client>

/** A workspace with an owner email, a key, a stream and (optionally) a webhook: what a hand-over needs. */
export interface Desk {
  readonly accountId: string
  readonly api: Api
  /** The webhook secret, when a webhook was set. */
  readonly secret: string | null
  /** A channel subscribed to the desk's stream (compact variant); answers its id. */
  readonly channel: (body: Record<string, unknown>) => Promise<string>
  /** Sends one event on the stream; answers the send's answer (its event and the jobs it made). */
  readonly send: (
    data?: unknown
  ) => Promise<{ ingestEventId: string; matched: Array<{ postGroupId: string; channelId: string }> }>
}

export const openDesk = async (
  node: TestNode,
  options: {
    readonly name: string
    readonly webhookUrl?: string
    readonly members?: ReadonlyArray<{ readonly email: string; readonly role: string }>
  }
): Promise<Desk> => {
  const a = admin(node)
  const made = await a.post("/admin/workspaces", { name: options.name, ownerEmail: "owner@example.test" })
  expect(made.status, made.text).toBe(201)
  const accountId = made.body.accountId as string
  for (const member of options.members ?? []) {
    const added = await a.post(`/admin/workspaces/${accountId}/members`, member)
    expect(added.status, added.text).toBe(201)
  }
  let secret: string | null = null
  if (options.webhookUrl !== undefined) {
    const hook = await a.put(`/admin/workspaces/${accountId}/webhook`, { url: options.webhookUrl })
    expect(hook.status, hook.text).toBe(200)
    secret = hook.body.secret as string
  }
  const key = await a.post(`/admin/workspaces/${accountId}/keys`, { scopes: ["*"] })
  expect(key.status, key.text).toBe(201)
  const api = client(node, key.body.apiKey)
  expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const streamMade = await api.post("/v1/streams", { name: "Prices", templateId: MARKET })
  expect(streamMade.status, streamMade.text).toBe(201)
  const streamId = streamMade.body.stream.id as string
  return {
    accountId,
    api,
    secret,
    channel: async (body) => {
      const c = await api.post("/v1/channels", body)
      expect(c.status, c.text).toBe(201)
      const sub = await api.post(`/v1/channels/${c.body.channel.id}/subscriptions`, {
        kind: "STREAM",
        streamId,
        templateVariant: "compact"
      })
      expect(sub.status, sub.text).toBe(201)
      return c.body.channel.id as string
    },
    send: async (data = content) => {
      const sent = await api.post("/v1/stream", {
        streamId,
        eventId: newEventId(),
        occurredAt: new Date().toISOString(),
        data
      })
      expect(sent.status, sent.text).toBe(202)
      return sent.body
    }
  }
}

/** Reads until `done` holds (every `everyMs`, at most `timeoutMs`); answers the last reading. */
export const until = async <T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
  everyMs = 150
): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) {
      throw new Error(`${what}: not reached in ${timeoutMs} ms; last: ${JSON.stringify(value)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

export const postOf = async (api: Api, postId: string) => {
  const r = await api.get(`/v1/posts?q=${encodeURIComponent(postId)}`)
  expect(r.status, r.text).toBe(200)
  return r.body.posts.find((p: { id: string }) => p.id === postId) as Record<string, any> | undefined
}

export const deliveryOf = async (api: Api, id: string) => {
  const r = await api.get(`/v1/deliveries/${id}`)
  expect(r.status, r.text).toBe(200)
  return r.body.delivery as Record<string, any>
}

/** Reads the post until it is in `state`; answers that reading. */
export const postInState = (api: Api, postId: string, state: string, timeoutMs: number) =>
  until(`post ${state}`, () => postOf(api, postId), (p) => p?.state === state, timeoutMs)

/** Reads the delivery until it is in `state`; answers that reading. */
export const deliveryInState = (api: Api, id: string, state: string, timeoutMs: number) =>
  until(`delivery ${state}`, () => deliveryOf(api, id), (d) => d.state === state, timeoutMs)

export const deliveries = async (api: Api) => {
  const r = await api.get("/v1/deliveries")
  expect(r.status, r.text).toBe(200)
  return r.body.deliveries as Array<Record<string, any>>
}

/** A link the node signed for its public base URL, called on the node's own address. */
export const onNode = (node: TestNode, link: string) => {
  const url = new URL(link)
  return `${node.url}${url.pathname}${url.search}`
}

/**
 * What a hand-over test file runs against: one node over a fresh database, a loopback receiver and an SMTP sink,
 * started before the file's tests and stopped after. The node calls private addresses (the receiver is on loopback)
 * unless `env` says otherwise, and sends email to the sink unless `outbox` keeps it in DATA_DIR/outbox (then there is
 * no sink).
 */
export const handOverRig = (label: string, options: { env?: Record<string, string>; outbox?: boolean } = {}): Rig =>
  useNode({
    label,
    env: { ALLOW_PRIVATE_URLS: "true", DELIVERY_RETRY_SCHEDULE: "1s,1s", ...options.env },
    receiver: true,
    smtp: options.outbox !== true
  })
