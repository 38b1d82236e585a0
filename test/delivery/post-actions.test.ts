import { describe, expect, it } from "vitest"
import { verifyWebhook } from "../../src/delivery/receiver/Verify.js"
import { type Api, handOverRig, openDesk, until } from "./HandOverDesk.js"

const rig = handOverRig("handover_actions", { env: { DELIVERY_RETRY_SCHEDULE: "1s" }, outbox: true })

const content = {
  clipData: { headline: "Oil slips", subline: "Brent under $80" },
  metaData: { title: "Oil slips", captionMedium: "Oil slipped on Friday.", hashtags: ["oil"] }
}

type Job = { id: string; status: string; updatable: boolean; deletable: boolean; repostable: boolean; title: string }

const jobOf = (api: Api, jobId: string) => async () =>
  ((await api.get("/v1/jobs?perPage=100")).body.jobs as Array<Job>).find((j) => j.id === jobId)

/** A workspace whose one webhook-only channel has published one post; answers its job. */
const published = async () => {
  const desk = await openDesk(rig.node, { name: "Actions", webhookUrl: rig.receiver.url })
  await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: false })
  const jobId = (await desk.send(content)).matched[0]!.postGroupId
  const job = await until("published", jobOf(desk.api, jobId), (j) => j?.status === "PUBLISHED", 150_000)
  return { api: desk.api, secret: desk.secret!, jobId, job: job! }
}

const untilJob = (api: Api, jobId: string, done: (job: Job) => boolean) =>
  until(`job ${jobId}`, jobOf(api, jobId), (j) => j !== undefined && done(j), 120_000)

describe("after publication", () => {
  it("an update goes out as a signed post.update and the post reads as changed", async () => {
    const { api, jobId, job, secret } = await published()
    expect(job).toMatchObject({ updatable: true, deletable: true, repostable: true })
    const tooLong = await api.post(`/v1/jobs/${jobId}/update`, { title: "x".repeat(401) })
    expect(tooLong.status).toBe(400)
    expect(JSON.stringify(tooLong.body.error.details)).toContain("title")
    const calls = rig.receiver.calls.length
    const queued = await api.post(`/v1/jobs/${jobId}/update`, {
      title: "Oil slips further",
      hashtags: ["oil", "brent"]
    })
    expect(queued.status, queued.text).toBe(200)
    expect(queued.body).toEqual({ ok: true, queued: 1 })
    const [, ...rest] = await rig.receiver.waitFor(calls + 1, 30_000).then((all) => all.slice(calls - 1))
    const call = rest[0]!
    expect(call.json.type).toBe("post.update")
    expect(call.json.data.changes).toEqual({ title: "Oil slips further", hashtags: ["oil", "brent"] })
    expect(verifyWebhook(secret, call.headers as Record<string, string>, call.body).ok).toBe(true)
    await untilJob(api, jobId, (j) => j.title === "Oil slips further")
  }, 240_000)

  it(
    "a delete that the receiver takes makes the job DELETED; one failing every attempt leaves it DELETE_FAILED",
    async () => {
      const { api, jobId } = await published()
      rig.receiver.answerWith(() => ({ status: 503 }))
      const failing = await api.post(`/v1/jobs/${jobId}/delete`)
      expect(failing.body).toEqual({ ok: true, queued: 1 })
      const failed = await untilJob(api, jobId, (j) => j.status === "DELETE_FAILED")
      expect(failed).toMatchObject({ deletable: true })
      const posts = (await api.get("/v1/posts?perPage=100")).body.posts as Array<
        { postGroupId: string; state: string; failureReason: string }
      >
      expect(posts.find((p) => p.postGroupId === jobId)!.failureReason).toMatch(/503/)
      rig.receiver.answerWith(() => ({ status: 200 }))
      expect((await api.post(`/v1/jobs/${jobId}/delete`)).status).toBe(200)
      await untilJob(api, jobId, (j) => j.status === "DELETED")
      const again = await api.post(`/v1/jobs/${jobId}/delete`)
      expect(again.status).toBe(409)
    },
    240_000
  )

  it("a repost is a new job on the same channel with a new post, handed over on its own", async () => {
    const { api, jobId } = await published()
    const calls = rig.receiver.calls.length
    const reposted = await api.post(`/v1/jobs/${jobId}/repost`)
    expect(reposted.status, reposted.text).toBe(200)
    expect(reposted.body.postGroupId).not.toBe(jobId)
    await untilJob(api, reposted.body.postGroupId, (j) => j.status === "PUBLISHED")
    const call = (await rig.receiver.waitFor(calls + 1, 30_000))[calls]!
    expect(call.json.data.posts.map((p) => p.postGroupId)).toEqual([reposted.body.postGroupId])
  }, 240_000)
})
