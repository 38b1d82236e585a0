import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { until } from "../delivery/HandOverDesk.js"
import { admin } from "../support/Client.js"
import { query } from "../support/Database.js"
import { type Receiver, startReceiver } from "../support/Receiver.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"
import { addPackage, type Api, inSeconds, listeningChannel, newList, packageOf, workspace } from "./QueueDesk.js"

let receiver: Receiver
let api: Api

beforeAll(async () => {
  receiver = await startReceiver()
})

afterAll(async () => {
  await receiver?.stop()
})

const { db, node } = useNode({
  label: "queues_firing",
  env: () => ({ ALLOW_PRIVATE_URLS: "true", DELIVERY_RETRY_SCHEDULE: "1s,1s" })
})

beforeAll(async () => {
  const ws = await workspace(node, "Firing")
  const hook = await admin(node).put(`/admin/workspaces/${ws.accountId}/webhook`, { url: receiver.url })
  expect(hook.status, hook.text).toBe(200)
  api = ws.api
})

const eventsOf = (packageId: string) =>
  query(db.url, "SELECT id FROM ingest_events WHERE event_id = $1", [`package:${packageId}`])

const fired = (queueId: string, packageId: string) =>
  until(`post ${packageId} fired`, () => packageOf(api, queueId, packageId), (p) => p?.state === "FIRED", 30_000)

describe("a post firing at its time", () => {
  it("fires once, becomes an event (origin manual), renders and is handed over; its outcome counts it", async () => {
    const list = await newList(api, "Markets live")
    const channelId = await listeningChannel(api, list.id, {
      name: "Reels",
      deliverByWebhook: true,
      deliverByEmail: false
    })
    const post = await addPackage(api, list.id, {
      title: "Gold fires",
      templateVariant: "compact",
      templateVersion: "1.0.1",
      scheduledFor: inSeconds(4)
    })

    const [call] = await receiver.waitFor(1, 150_000)
    expect(call!.json.type).toBe("post.publish")
    expect(call!.json.data.eventId).toBe(`package:${post.id}`)
    expect(call!.json.data.posts.map((p) => (p.channel as { id: string }).id)).toEqual([channelId])
    expect(call!.json.data.posts[0]).toMatchObject({
      origin: "manual",
      postTitle: "Gold fires",
      title: "Gold at a record"
    })

    const done = await until(
      "outcome counts the published post",
      () => packageOf(api, list.id, post.id),
      (p) => p?.outcome?.published === 1
    )
    expect(done).toMatchObject({
      state: "FIRED",
      ingestEventId: call!.json.data.ingestEventId,
      outcome: {
        channels: 1,
        rendering: 0,
        rendered: 1,
        renderFailed: 0,
        published: 1,
        awaitingApproval: 0,
        publishFailed: 0
      }
    })
    expect(Date.parse(done!.firedAt)).toBeGreaterThanOrEqual(Date.parse(post.scheduledFor))

    const log = await api.get("/v1/ingest-events?origin=manual")
    expect(log.status, log.text).toBe(200)
    const row = log.body.events.find((e: { id: string }) => e.id === done!.ingestEventId)
    expect(row).toMatchObject({
      origin: "manual",
      input: "queue",
      details: "Markets live",
      postTitle: "Gold fires",
      eventId: `package:${post.id}`,
      status: "ACCEPTED",
      jobs: 1
    })
    // The post drew its own choice of variant and version (a QUEUE subscription pins nothing).
    const jobs = await query(
      db.url,
      "SELECT template_variant, template_version, origin FROM jobs WHERE ingest_event_id = $1",
      [done!.ingestEventId]
    )
    expect(jobs).toEqual([{ template_variant: "compact", template_version: "1.0.1", origin: "manual" }])
    expect(await eventsOf(post.id)).toHaveLength(1)

    // A fired post is history: no edit, no cancel.
    expectError(
      await api.patch(`/v1/queues/${list.id}/packages/${post.id}`, { title: "Too late" }),
      409,
      "invalid_state_transition"
    )
    expectError(
      await api.patch(`/v1/queues/${list.id}/packages/${post.id}`, { state: "CANCELLED" }),
      409,
      "invalid_state_transition"
    )
    expect(receiver.calls.filter((c) => c.json.data.eventId === `package:${post.id}`)).toHaveLength(1)
  }, 180_000)

  it("fires a post at its changed time, not at the old one, and never fires a cancelled one", async () => {
    // No channel listens: a fired post is an event with no jobs (no post, so no text), counted as nothing.
    const list = await newList(api, "Quiet")
    const cancelled = await addPackage(api, list.id, { title: "Cancelled", scheduledFor: inSeconds(2) })
    const postponed = await addPackage(api, list.id, { title: "Postponed", scheduledFor: inSeconds(2) })
    const advanced = await addPackage(api, list.id, { title: "Advanced", scheduledFor: inSeconds(3600) })
    expect((await api.patch(`/v1/queues/${list.id}/packages/${cancelled.id}`, { state: "CANCELLED" })).status).toBe(200)
    const later = inSeconds(3600)
    expect((await api.patch(`/v1/queues/${list.id}/packages/${postponed.id}`, { scheduledFor: later })).status).toBe(
      200
    )
    const soon = inSeconds(4)
    expect((await api.patch(`/v1/queues/${list.id}/packages/${advanced.id}`, { scheduledFor: soon })).status).toBe(200)

    const done = await fired(list.id, advanced.id)
    expect(done).toMatchObject({
      scheduledFor: soon,
      outcome: {
        channels: 0,
        rendering: 0,
        rendered: 0,
        renderFailed: 0,
        published: 0,
        awaitingApproval: 0,
        publishFailed: 0
      }
    })
    expect(Date.parse(done!.firedAt)).toBeGreaterThanOrEqual(Date.parse(soon))
    const [event] = await query(db.url, "SELECT status, origin FROM ingest_events WHERE id = $1", [done!.ingestEventId])
    expect(event).toEqual({ status: "NO_MATCH", origin: "manual" })
    // Their old timers came due before the new one (2 s against 4 s) and did nothing.
    expect(await packageOf(api, list.id, cancelled.id)).toMatchObject({
      state: "CANCELLED",
      firedAt: null,
      outcome: null
    })
    expect(await packageOf(api, list.id, postponed.id)).toMatchObject({ state: "SCHEDULED", scheduledFor: later })
    expect(await eventsOf(cancelled.id)).toEqual([])
    expect(await eventsOf(postponed.id)).toEqual([])
  }, 60_000)

  it(
    "fires nothing while its list is off; switched on, a post whose time passed fires late and the others keep theirs",
    async () => {
      const list = await newList(api, "Paused")
      expect((await api.patch(`/v1/queues/${list.id}`, { enabled: false })).status).toBe(200)
      const missed = await addPackage(api, list.id, { title: "Missed", scheduledFor: inSeconds(1) })
      const future = await addPackage(api, list.id, { title: "Future", scheduledFor: inSeconds(3600) })
      // Its time passes with the list off (its timer is due within half a second of it).
      await until(
        "the missed post's time passed",
        async () => Date.now(),
        (now) => now > Date.parse(missed.scheduledFor) + 2500
      )
      expect(await packageOf(api, list.id, missed.id)).toMatchObject({ state: "SCHEDULED", firedAt: null })
      expect(await eventsOf(missed.id)).toEqual([])

      const on = await api.patch(`/v1/queues/${list.id}`, { enabled: true })
      expect(on.status, on.text).toBe(200)
      const late = await fired(list.id, missed.id)
      expect(Date.parse(late!.firedAt)).toBeGreaterThan(Date.parse(missed.scheduledFor) + 2000)
      expect(await packageOf(api, list.id, future.id)).toMatchObject({
        state: "SCHEDULED",
        scheduledFor: future.scheduledFor
      })
      expect(await eventsOf(missed.id)).toHaveLength(1)
    },
    60_000
  )
})
