import { describe, expect, it } from "vitest"
import { type Api, deliveries, handOverRig, openDesk, postOf, until } from "./HandOverDesk.js"

const rig = handOverRig("handover_failed_actions", { env: { DELIVERY_RETRY_SCHEDULE: "1s" }, outbox: true })

const content = {
  clipData: { headline: "Copper rallies", subline: "Supply worries lift metals" },
  metaData: { title: "Copper rallies", captionMedium: "Copper rallied on Monday.", hashtags: ["copper"] }
}

type Job = { id: string; status: string; deletable: boolean; updatable: boolean }

const jobOf = (api: Api, jobId: string) => async () =>
  ((await api.get("/v1/jobs?perPage=100")).body.jobs as Array<Job>).find((j) => j.id === jobId)

/**
 * A channel that hands over by webhook and by email (the default switch left on) has published one post; the
 * receiver refuses every `event` call from then on. Answers the post.
 */
const publishedThenRefused = async (event: string) => {
  const desk = await openDesk(rig.node, { name: `Refused ${event}`, webhookUrl: rig.receiver.url })
  await desk.channel({ name: "Both ways", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: true })
  const jobId = (await desk.send(content)).matched[0]!.postGroupId
  await until("published", jobOf(desk.api, jobId), (j) => j?.status === "PUBLISHED", 150_000)
  const posts = (await desk.api.get("/v1/posts?perPage=100")).body.posts as Array<{ id: string; postGroupId: string }>
  const postId = posts.find((p) => p.postGroupId === jobId)!.id
  rig.receiver.answerWith((call) => ({ status: call.json.type === event ? 409 : 200 }))
  return { api: desk.api, jobId, postId }
}

/** Waits until every delivery of `event` settled: the webhook one dead, the email one delivered. */
const settled = (api: Api, event: string) =>
  until(`${event} settled`, () => deliveries(api), (all) => {
    const mine = all.filter((d) => d["event"] === event)
    return mine.length === 2 && mine.every((d) => d["state"] === "DEAD" || d["state"] === "DELIVERED")
  }, 60_000)

describe("a change the receiver refuses on every attempt says why", () => {
  it(
    "post.delete: GET /v1/posts still lists the post, DELETE_FAILED, with the reason; the email does not hide it",
    async () => {
      const { api, jobId, postId } = await publishedThenRefused("post.delete")
      const asked = await api.post(`/v1/jobs/${jobId}/delete`)
      expect(asked.body).toEqual({ ok: true, queued: 2 })
      await settled(api, "post.delete")
      const post = await until("post read", () => postOf(api, postId), (p) => p?.["state"] === "DELETE_FAILED", 30_000)
      expect(post!["failureReason"]).toMatch(/409/)
      expect(await jobOf(api, jobId)()).toMatchObject({ status: "DELETE_FAILED", deletable: true })
      rig.receiver.answerWith(() => ({ status: 200 }))
      expect((await api.post(`/v1/jobs/${jobId}/delete`)).status).toBe(200)
      const gone = await until("deleted", () => postOf(api, postId), (p) => p?.["state"] === "DELETED", 60_000)
      expect(gone!["failureReason"]).toBeNull()
    },
    240_000
  )

  it("post.update: the post is UPDATE_FAILED with the reason, and keeps its text", async () => {
    const { api, jobId, postId } = await publishedThenRefused("post.update")
    const asked = await api.post(`/v1/jobs/${jobId}/update`, { title: "Copper rallies further" })
    expect(asked.body).toEqual({ ok: true, queued: 2 })
    await settled(api, "post.update")
    const post = await until("post read", () => postOf(api, postId), (p) => p?.["state"] === "UPDATE_FAILED", 30_000)
    expect(post!["failureReason"]).toMatch(/409/)
    expect(post!["title"]).toBe("Copper rallies")
    expect(await jobOf(api, jobId)()).toMatchObject({ status: "UPDATE_FAILED", updatable: true })
  }, 240_000)
})
