import { expect } from "vitest"
import { type Answer, client, workspaceWithKey } from "../support/Client.js"
import type { TestNode } from "../support/Node.js"
import { MARKET } from "../support/Routes.js"

export type Api = ReturnType<typeof client>

/** Content the market-move template's compact variant draws in a few seconds, with its post text. */
export const content = {
  clipData: { headline: "Gold climbs to a record", subline: "Bullion tops $2,400" },
  metaData: { title: "Gold at a record", captionMedium: "Gold climbed to a record on Tuesday.", hashtags: ["gold"] }
}

export const pathsOf = (r: Answer): Array<string> => r.body.error.details.map((d: { path: string }) => d.path)

export const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString()

/** A workspace with a brand and a key holding every permission. */
export const workspace = async (node: TestNode, name: string) => {
  const ws = await workspaceWithKey(node, ["*"], name, "owner@example.test")
  const brand = await ws.api.post("/v1/brands", { name: `${name} brand` })
  expect(brand.status, brand.text).toBe(201)
  return ws
}

export const newList = async (api: Api, name: string) => {
  const r = await api.post("/v1/queues", { name })
  expect(r.status, r.text).toBe(201)
  return r.body.queue as { id: string; name: string }
}

/** A channel subscribed to the list; answers the channel's id. */
export const listeningChannel = async (api: Api, queueId: string, body: Record<string, unknown> = {}) => {
  const c = await api.post("/v1/channels", body)
  expect(c.status, c.text).toBe(201)
  const sub = await api.post(`/v1/channels/${c.body.channel.id}/subscriptions`, { kind: "QUEUE", queueId })
  expect(sub.status, sub.text).toBe(201)
  return c.body.channel.id as string
}

export const packageBody = (overrides: Record<string, unknown> = {}) => ({
  title: "Gold post",
  templateId: MARKET,
  templateVariant: "compact",
  scheduledFor: inSeconds(3600),
  data: content,
  ...overrides
})

export const addPackage = async (api: Api, queueId: string, overrides: Record<string, unknown> = {}) => {
  const r = await api.post(`/v1/queues/${queueId}/packages`, packageBody(overrides))
  expect(r.status, r.text).toBe(201)
  return r.body.package as Record<string, any>
}

export const listOf = async (api: Api, queueId: string) => {
  const r = await api.get("/v1/queues")
  expect(r.status, r.text).toBe(200)
  return r.body.queues.find((q: { id: string }) => q.id === queueId) as Record<string, any> | undefined
}

export const packageOf = async (api: Api, queueId: string, packageId: string) =>
  ((await listOf(api, queueId))?.posts ?? []).find((p: { id: string }) => p.id === packageId) as
    | Record<string, any>
    | undefined
