import { beforeAll, describe, expect, it } from "vitest"
import { query } from "../support/Database.js"
import { INDEX_CLOSE, sendForLater, settledJobs } from "../support/Jobs.js"
import { deskOfThree, formPost, signInOverHttp, withSession } from "../support/People.js"
import { useNode } from "../support/Rig.js"

let jobId = ""
const sessions = { owner: "", member: "", other: "" }
const OWNER = "owner@pipeline.test"
const MEMBER = "member@pipeline.test"
const OTHER = "other@pipeline.test"

const { db, node, sink } = useNode({ label: "console_pipeline", smtp: true })

beforeAll(async () => {
  const { api } = await deskOfThree(node, "Pipeline desk", { owner: OWNER, member: MEMBER, other: OTHER })
  expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const channel = (await api.post("/v1/channels", { name: "Reels <Berlin>" })).body.channel
  const sub = await api.post(`/v1/channels/${channel.id}/subscriptions`, { ...INDEX_CLOSE, templateVariant: "compact" })
  expect(sub.status, sub.text).toBe(201)
  // Rendered, then scheduled an hour ahead: it rests in flight while the tests look at it.
  const sent = await sendForLater(api, {
    clipData: { headline: "Gold climbs", subline: "Bullion tops $2,400" },
    metaData: { title: "<b>Gold</b> at a record", captionMedium: "Gold climbed.", hashtags: ["gold"] }
  })
  jobId = sent.matched[0]!.postGroupId
  sessions.owner = await signInOverHttp(node, sink, OWNER)
  sessions.member = await signInOverHttp(node, sink, MEMBER)
  sessions.other = await signInOverHttp(node, sink, OTHER)
  const [job] = await settledJobs(db.url, "id = $1", [jobId])
  expect(job!.status).toBe("SCHEDULED")
}, 240_000)

const get = async (path: string, session = sessions.owner) => {
  const r = await fetch(`${node.url}${path}`, { redirect: "manual", headers: withSession(session) })
  return { status: r.status, headers: r.headers, html: await r.text() }
}
const post = (path: string, session: string, fields: Record<string, string> = {}, headers = {}) =>
  formPost(node, path, fields, { cookie: `clipwright_session=${session}`, ...headers })
const statusOf = async () => (await query(db.url, "SELECT status FROM jobs WHERE id = $1", [jobId]))[0]!.status

describe("/console/pipeline", () => {
  it("counts the jobs per stage and lists the scheduled job with its time, escaped, polling at the API's pollMs", async () => {
    const page = await get("/console/pipeline")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'")
    expect(page.html).toContain(`<a href="/console/pipeline" aria-current="page">Pipeline</a>`)
    expect(page.html).toMatch(/<span class="n">1<\/span> <span>Scheduled<\/span>/)
    expect(page.html).toMatch(/<span class="n">0<\/span> <span>Rendering<\/span>/)
    expect(page.html).toContain("1 job in flight.")
    expect(page.html).toContain(`href="/console/jobs/${jobId}"`)
    expect(page.html).toContain("&lt;b>Gold&lt;/b> at a record")
    expect(page.html).not.toContain("<b>Gold</b>")
    expect(page.html).toContain("Reels &lt;Berlin>")
    expect(page.html).toMatch(/Scheduled: goes out at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\./)
    expect(page.html).toContain(`hx-get="/console/pipeline/live?page=1" hx-trigger="every 2000ms"`)
    expect(page.html).not.toMatch(/<script>(?!<\/script>)|<script [^>]*>[^<]/)
  })

  it("answers the polled block alone, and a page past the end lists nothing", async () => {
    const live = await get("/console/pipeline/live")
    expect(live.status).toBe(200)
    expect(live.html.startsWith(`<div id="pipeline-live"`)).toBe(true)
    expect(live.html).not.toContain("<html")
    expect(live.html).toContain(`data-job="${jobId}"`)
    const beyond = await get("/console/pipeline/live?page=2")
    expect(beyond.html).not.toContain(`data-job="${jobId}"`)
    expect(beyond.html).toContain("Previous")
    expect((await get("/console/pipeline?page=zero")).status).toBe(400)
  })

  it("shows a member the same pipeline", async () => {
    const page = await get("/console/pipeline", sessions.member)
    expect(page.status).toBe(200)
    expect(page.html).toContain(`data-job="${jobId}"`)
  })
})

describe("/console/jobs/{id}", () => {
  it("tells the job's story: the event, the render, the post and that no hand-over happened yet", async () => {
    const page = await get(`/console/jobs/${jobId}`)
    expect(page.status).toBe(200)
    for (const heading of ["Event", "Render", "Post", "Approval", "Hand-over", "Actions"]) {
      expect(page.html).toContain(`>${heading}</h2>`)
    }
    expect(page.html).toContain("<h1 class=\"wrap\">&lt;b>Gold&lt;/b> at a record</h1>")
    expect(page.html).toMatch(/<dt>State<\/dt><dd>completed<\/dd>/)
    expect(page.html).toContain("Not needed on this channel.")
    expect(page.html).toContain("Nothing handed over yet.")
    expect(page.html).toContain(`action="/console/jobs/${jobId}/cancel"`)
    // Not published: no Repost, Update or Delete.
    expect(page.html).not.toContain(`/console/jobs/${jobId}/repost`)
    expect(page.html).not.toContain(`/console/jobs/${jobId}/update`)
  })

  it("shows a member the story without actions, and refuses a member's Cancel with 403", async () => {
    const page = await get(`/console/jobs/${jobId}`, sessions.member)
    expect(page.status).toBe(200)
    expect(page.html).not.toContain("<form method=\"post\" action=\"/console/jobs/")
    expect((await post(`/console/jobs/${jobId}/cancel`, sessions.member)).status).toBe(403)
    expect(await statusOf()).toBe("SCHEDULED")
  })

  it("refuses a Cancel sent from another site", async () => {
    const r = await post(`/console/jobs/${jobId}/cancel`, sessions.owner, {}, { "sec-fetch-site": "cross-site" })
    expect(r.status).toBe(403)
    expect(await statusOf()).toBe("SCHEDULED")
  })

  it("is not found for a person of another workspace, nor is its Cancel", async () => {
    const page = await get(`/console/jobs/${jobId}`, sessions.other)
    expect(page.status).toBe(404)
    expect(page.html).toContain("There is no such job in this workspace.")
    expect((await post(`/console/jobs/${jobId}/cancel`, sessions.other)).status).toBe(404)
    expect((await get("/console/jobs/nosuchjob")).status).toBe(404)
    expect(await statusOf()).toBe("SCHEDULED")
  })

  it("checks an update as the API does, and refuses it for a job that is not published (409)", async () => {
    const long = await post(`/console/jobs/${jobId}/update`, sessions.owner, { title: "x".repeat(401) })
    expect(long.status).toBe(400)
    expect(await long.text()).toContain("title: at most 400 characters")
    const early = await post(`/console/jobs/${jobId}/update`, sessions.owner, { caption: "Gold again" })
    expect(early.status).toBe(409)
    expect(await early.text()).toMatch(/<p class="notice error" role="status">Not done: [^<]+<\/p>/)
  })

  it("cancels the job through its channel: the page says so, the pipeline no longer lists it, a second Cancel is 409", async () => {
    const r = await post(`/console/jobs/${jobId}/cancel`, sessions.owner)
    expect(r.status).toBe(303)
    expect(r.headers.get("location")).toBe(`/console/jobs/${jobId}?done=cancelled`)
    expect(await statusOf()).toBe("CANCELLED")
    const page = await get(`/console/jobs/${jobId}?done=cancelled`)
    expect(page.html).toContain("Cancelled: nothing more will be rendered or handed over for this job.")
    expect(page.html).toContain("Nothing can be done to this job now.")
    const pipeline = await get("/console/pipeline")
    expect(pipeline.html).not.toContain(`data-job="${jobId}"`)
    expect(pipeline.html).toMatch(/<span class="n">1<\/span> <span>Cancelled<\/span>/)
    const again = await post(`/console/jobs/${jobId}/cancel`, sessions.owner)
    expect(again.status).toBe(409)
  })
})
