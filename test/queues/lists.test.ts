import { beforeAll, describe, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"
import { expectError, ULID } from "../support/Routes.js"
import { type Api, listeningChannel, listOf, newList, pathsOf, workspace } from "./QueueDesk.js"

let api: Api

const { db, node } = useNode({ label: "queues_lists" })

beforeAll(async () => {
  api = (await workspace(node, "Lists")).api
})

describe("post lists", () => {
  it("creates a list (201 { queue }), lists it with no posts and no listeners, and refuses a name in use", async () => {
    const r = await api.post("/v1/queues", { name: "Morning" })
    expect(r.status, r.text).toBe(201)
    expect(r.body.queue).toEqual({
      id: expect.stringMatching(ULID),
      name: "Morning",
      enabled: true,
      posts: [],
      subscribers: 0,
      listeners: []
    })
    expect(await listOf(api, r.body.queue.id)).toEqual(r.body.queue)
    expectError(await api.post("/v1/queues", { name: "Morning" }), 409, "conflict")
    // The same request sent again (same x-request-id) is the same create, not a conflict.
    const requestId = "01J9ZQ3M4N5P6Q7R8S9T0V1W2X"
    const first = await api.post("/v1/queues", { name: "Evening" }, { "x-request-id": requestId })
    const again = await api.post("/v1/queues", { name: "Evening" }, { "x-request-id": requestId })
    expect([first.status, again.status]).toEqual([201, 201])
    expect(again.body.queue.id).toBe(first.body.queue.id)
    expect((await api.get("/v1/queues")).body.queues.map((q: { name: string }) => q.name)).toEqual([
      "Morning",
      "Evening"
    ])
  })

  it("names are 1 to 80 characters: 400 schema_validation at /name", async () => {
    for (const body of [{ name: "" }, { name: "x".repeat(81) }, {}, { name: 7 }]) {
      const r = await api.post("/v1/queues", body)
      expectError(r, 400, "schema_validation")
      expect(pathsOf(r), JSON.stringify(body)).toContain("/name")
    }
    expect((await api.post("/v1/queues", { name: "y".repeat(80) })).status).toBe(201)
  })

  it("renames and switches a list, answering { queue }; a name in use is 409; another workspace's list is 404", async () => {
    const list = await newList(api, "Weekly")
    await newList(api, "Monthly")
    const renamed = await api.patch(`/v1/queues/${list.id}`, { name: "Weekly digest" })
    expect(renamed.status, renamed.text).toBe(200)
    expect(renamed.body.queue).toMatchObject({ id: list.id, name: "Weekly digest", enabled: true })
    const off = await api.patch(`/v1/queues/${list.id}`, { enabled: false })
    expect(off.body.queue).toMatchObject({ name: "Weekly digest", enabled: false })
    expectError(await api.patch(`/v1/queues/${list.id}`, { name: "Monthly" }), 409, "conflict")
    const bad = await api.patch(`/v1/queues/${list.id}`, { enabled: "yes" })
    expectError(bad, 400, "schema_validation")
    expect(pathsOf(bad)).toContain("/enabled")
    const other = (await workspaceWithKey(node, ["*"], "Other")).api
    expectError(await other.patch(`/v1/queues/${list.id}`, { name: "Mine" }), 404, "not_found")
    expectError(await other.post(`/v1/queues/${list.id}/delete`), 404, "not_found")
    expect((await other.get("/v1/queues")).body.queues).toEqual([])
    expectError(await api.patch("/v1/queues/01ARZ3NDEKTSV4RRFFQ69G5FAV", { enabled: true }), 404, "not_found")
  })

  it("takes QUEUE subscriptions: listeners and subscribers on the list, queueName on the channel", async () => {
    const list = await newList(api, "Breaking")
    const first = await listeningChannel(api, list.id, { name: "Reels" })
    const second = await listeningChannel(api, list.id, { name: "Shorts", surface: "youtube-shorts" })
    const channel = (await api.get("/v1/channels")).body.channels.find((c: { id: string }) => c.id === first)
    expect(channel.subscriptions).toEqual([expect.objectContaining({
      kind: "QUEUE",
      queueId: list.id,
      queueName: "Breaking",
      templateId: null,
      templateVariant: null,
      templateVersion: null
    })])
    // A switched-off subscription still subscribes, but a firing post does not reach it.
    const subId = channel.subscriptions[0].id
    expect((await api.patch(`/v1/channels/${first}/subscriptions/${subId}`, { enabled: false })).status).toBe(200)
    const seen = await listOf(api, list.id)
    expect(seen!.subscribers).toBe(2)
    expect(seen!.listeners).toEqual([{ channelId: second, channelName: "Shorts", brandName: "Lists brand" }])
    // The channel shows the list's name as it is now.
    await api.patch(`/v1/queues/${list.id}`, { name: "Breaking news" })
    const renamed = (await api.get(`/v1/channels`)).body.channels.find((c: { id: string }) => c.id === second)
    expect(renamed.subscriptions[0].queueName).toBe("Breaking news")
  })

  it("refuses a QUEUE subscription to a list that is not the workspace's, and any pin on one", async () => {
    const list = await newList(api, "Pinned")
    const c = (await api.post("/v1/channels", { name: "Pins" })).body.channel
    for (const queueId of ["01ARZ3NDEKTSV4RRFFQ69G5FAV", "nope"]) {
      const r = await api.post(`/v1/channels/${c.id}/subscriptions`, { kind: "QUEUE", queueId })
      expectError(r, 404, "not_found")
      expect(pathsOf(r)).toEqual(["/queueId"])
    }
    const other = await workspace(node, "Elsewhere")
    const theirs = await newList(other.api, "Theirs")
    expectError(
      await api.post(`/v1/channels/${c.id}/subscriptions`, { kind: "QUEUE", queueId: theirs.id }),
      404,
      "not_found"
    )
    const pinned = await api.post(`/v1/channels/${c.id}/subscriptions`, {
      kind: "QUEUE",
      queueId: list.id,
      templateVariant: "compact"
    })
    expectError(pinned, 400, "schema_validation")
    expect(pathsOf(pinned)).toEqual(["/templateVariant"])
    expect((await api.post(`/v1/channels/${c.id}/subscriptions`, { kind: "QUEUE", queueId: list.id })).status).toBe(201)
    expectError(
      await api.post(`/v1/channels/${c.id}/subscriptions`, { kind: "QUEUE", queueId: list.id }),
      409,
      "conflict"
    )
  })

  it("deletes a list with its posts and unsubscribes its channels ({ ok, removedFromChannels }); then it is gone", async () => {
    const list = await newList(api, "Doomed")
    const a = await listeningChannel(api, list.id, { name: "Doomed A" })
    await listeningChannel(api, list.id, { name: "Doomed B" })
    const created = await api.post(`/v1/queues/${list.id}/packages`, {
      title: "Never",
      templateId: "tpl_3a7c91e04b5d",
      scheduledFor: new Date(Date.now() + 3_600_000).toISOString(),
      data: { clipData: { headline: "Never sent" } }
    })
    expect(created.status, created.text).toBe(201)
    const requestId = "01J9ZQ3M4N5P6Q7R8S9T0V1W2Y"
    const removed = await api.post(`/v1/queues/${list.id}/delete`, undefined, { "x-request-id": requestId })
    expect(removed.status, removed.text).toBe(200)
    expect(removed.body).toEqual({ ok: true, removedFromChannels: 2 })
    // A retried delete gets its first answer; any other one finds nothing.
    const retried = await api.post(`/v1/queues/${list.id}/delete`, undefined, { "x-request-id": requestId })
    expect(retried.body).toEqual({ ok: true, removedFromChannels: 2 })
    expectError(await api.post(`/v1/queues/${list.id}/delete`), 404, "not_found")
    expect(await listOf(api, list.id)).toBeUndefined()
    const channel = (await api.get("/v1/channels")).body.channels.find((c: { id: string }) => c.id === a)
    expect(channel.subscriptions).toEqual([])
    expect(await query(db.url, "SELECT id FROM queue_packages WHERE queue_id = $1", [list.id])).toEqual([])
    // Its name is free again.
    expect((await api.post("/v1/queues", { name: "Doomed" })).status).toBe(201)
  })

  it("needs postlists:read to read and postlists:write to change", async () => {
    const reader = await workspaceWithKey(node, ["postlists:read"], "Reader")
    expect((await reader.api.get("/v1/queues")).status).toBe(200)
    const refused = await reader.api.post("/v1/queues", { name: "Mine" })
    expectError(refused, 403, "forbidden")
    expect(refused.body.error.message).toContain("postlists:write")
    const writer = await workspaceWithKey(node, ["postlists:write"], "Writer")
    expect((await writer.api.post("/v1/queues", { name: "Mine" })).status).toBe(201)
    expectError(await writer.api.get("/v1/queues"), 403, "forbidden")
  })
})
