import { describe, expect, it } from "vitest"
import { addPackage, inSeconds, newList } from "../queues/QueueDesk.js"
import { OWNER_EMAIL, workspaceWithKey } from "../support/Client.js"
import { useNode } from "../support/Rig.js"
import { MARKET, newEventId } from "../support/Routes.js"
import { until } from "../support/Until.js"

const { node } = useNode({ label: "removed_names" })

const content = {
  clipData: { headline: "Zinc firms", subline: "Smelter cuts bite" },
  metaData: { title: "Zinc firms", captionMedium: "Zinc firmed on Wednesday." }
}

type Named = { details: string }

describe("removed names in history", () => {
  it("events received before the delete name it '<name> (removed)' in every log, and search finds it so", async () => {
    const { api } = await workspaceWithKey(node, ["*"], "Removed history", OWNER_EMAIL)
    expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
    const stream = async (name: string) =>
      (await api.post("/v1/streams", { name, templateId: MARKET })).body.stream.id as string
    const doomed = await stream("Zinc desk")
    const kept = await stream("Lead desk")
    const channel = (await api.post("/v1/channels", { name: "Metals", surface: "youtube-shorts" })).body.channel
      .id as string
    for (const streamId of [doomed, kept]) {
      const sub = await api.post(`/v1/channels/${channel}/subscriptions`, {
        kind: "STREAM",
        streamId,
        templateVariant: "compact"
      })
      expect(sub.status, sub.text).toBe(201)
    }
    const send = async (streamId: string, data: unknown) => {
      const r = await api.post("/v1/stream", {
        streamId,
        eventId: newEventId(),
        occurredAt: "2026-11-25T09:00:00Z",
        data
      })
      expect(r.status, r.text).toBe(202)
      return r.body as { ingestEventId: string; matched: Array<{ postGroupId: string }> }
    }
    const accepted = await send(doomed, content)
    const unmapped = await send(doomed, { nothing: "to draw" })
    const other = await send(kept, { ...content, clipData: { headline: "Lead eases" } })
    const jobId = accepted.matched[0]!.postGroupId
    // Its post and both renders are there before the delete, so every log has a row of it.
    await until("post and renders", async () => {
      const posts = (await api.get("/v1/posts?perPage=100")).body.posts as Array<{ postGroupId: string }>
      const renders = (await api.get("/v1/render-jobs?perPage=100")).body.jobs as Array<unknown>
      return posts.some((p) => p.postGroupId === jobId) && renders.length === 2
    }, 120_000)

    const deleted = await api.post(`/v1/streams/${doomed}/delete`)
    expect(deleted.body).toEqual({ ok: true, stopped: 1 })
    const removed = "Zinc desk (removed)"

    const events = (await api.get("/v1/ingest-events?perPage=100")).body.events as Array<Named & { id: string }>
    const named = (id: string) => events.find((e) => e.id === id)!.details
    expect([named(accepted.ingestEventId), named(unmapped.ingestEventId), named(other.ingestEventId)])
      .toEqual([removed, removed, "Lead desk"])
    const detail = await api.get(`/v1/ingest-events/${accepted.ingestEventId}`)
    expect(detail.body.event.details).toBe(removed)
    const searched = await api.get(`/v1/ingest-events?q=${encodeURIComponent("(removed)")}`)
    expect(searched.body.events.map((e: { id: string }) => e.id).sort())
      .toEqual([accepted.ingestEventId, unmapped.ingestEventId].sort())

    const jobs = (await api.get("/v1/jobs?perPage=100")).body.jobs as Array<Named & { id: string }>
    expect(jobs.find((j) => j.id === jobId)!.details).toBe(removed)
    const foundJobs = (await api.get(`/v1/jobs?q=${encodeURIComponent(removed)}`)).body.jobs as Array<{ id: string }>
    expect(foundJobs.map((j) => j.id)).toEqual([jobId])
    const posts = (await api.get("/v1/posts?perPage=100")).body.posts as Array<Named & { postGroupId: string }>
    expect(posts.find((p) => p.postGroupId === jobId)!.details).toBe(removed)

    const renders = (await api.get("/v1/render-jobs?perPage=100")).body.jobs as Array<Named>
    expect(renders.map((r) => r.details).sort()).toEqual(["Lead desk", removed])
    const pipeline = (await api.get("/v1/pipeline")).body.render.recent as Array<Named>
    expect(pipeline.map((r) => r.details).sort()).toEqual(["Lead desk", removed])
  }, 240_000)

  it(
    "a removed channel's jobs name it and its removed brand with ' (removed)'; the brand's name is free again",
    async () => {
      const { api } = await workspaceWithKey(node, ["*"], "Removed brand", OWNER_EMAIL)
      expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
      const brand = (await api.post("/v1/brands", { name: "Night look" })).body.brand.id as string
      const streamId = (await api.post("/v1/streams", { name: "Tin desk", templateId: MARKET })).body.stream
        .id as string
      const made = await api.post("/v1/channels", { name: "Late", surface: "youtube-shorts", brandId: brand })
      expect(made.status, made.text).toBe(201)
      const channel = made.body.channel.id as string
      expect((await api.post(`/v1/channels/${channel}/subscriptions`, { kind: "STREAM", streamId })).status).toBe(201)
      const sent = await api.post("/v1/stream", {
        streamId,
        eventId: newEventId(),
        occurredAt: "2026-11-25T09:00:00Z",
        data: content
      })
      expect(sent.status, sent.text).toBe(202)
      const jobId = sent.body.matched[0].postGroupId as string
      expect((await api.post(`/v1/channels/${channel}/delete`)).status).toBe(200)
      const gone = await api.post(`/v1/brands/${brand}/delete`)
      expect(gone.status, gone.text).toBe(200)
      const job = (await api.get("/v1/jobs?perPage=100")).body.jobs.find((j: { id: string }) => j.id === jobId)
      expect(job).toMatchObject({ channelName: "Late (removed)", brandName: "Night look (removed)" })
      const again = await api.post("/v1/brands", { name: "Night look" })
      expect(again.status, again.text).toBe(201)
    },
    120_000
  )

  it("a post fired from a list deleted since names it '<name> (removed)' in the ingest log", async () => {
    const { api } = await workspaceWithKey(node, ["*"], "Removed list", OWNER_EMAIL)
    const list = await newList(api, "Evening slots")
    const post = await addPackage(api, list.id, { title: "Nickel note", scheduledFor: inSeconds(1) })
    const firedEvent = async () => {
      const lists = (await api.get("/v1/queues")).body.queues as Array<
        { id: string; posts: Array<{ id: string; ingestEventId: string | null }> }
      >
      return lists.find((l) => l.id === list.id)?.posts.find((p) => p.id === post["id"])?.ingestEventId ?? null
    }
    let eventId: string | null = null
    await until("fired", async () => (eventId = await firedEvent()) !== null, 60_000)
    const before = await api.get(`/v1/ingest-events/${eventId}`)
    expect(before.body.event.details).toBe("Evening slots")
    expect((await api.post(`/v1/queues/${list.id}/delete`)).status).toBe(200)
    const row = (await api.get("/v1/ingest-events")).body.events.find((e: { id: string }) => e.id === eventId)
    expect(row.details).toBe("Evening slots (removed)")
    expect((await api.get(`/v1/ingest-events/${eventId}`)).body.event.details).toBe("Evening slots (removed)")
    expect((await api.post("/v1/queues", { name: "Evening slots" })).status).toBe(201)
  }, 120_000)
})
