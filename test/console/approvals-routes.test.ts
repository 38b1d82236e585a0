import { beforeAll, describe, expect, it } from "vitest"
import { content, type Desk, openDesk, until } from "../delivery/HandOverDesk.js"
import { query } from "../support/Database.js"
import { formPost, SESSION_COOKIE, signInOverHttp, withSession } from "../support/People.js"
import { useNode } from "../support/Rig.js"

// The console's approvals pages as HTML, where no script is involved: the Reject button, the channel filter and
// paging. The browser walk (video, Approve, Approve selected) is approvals-browser.test.ts.
let desk: Desk
let session = ""
const channel = { reviewed: "", second: "" }
const REVIEWER = "ops@approvals-routes.test"
/** Each send waits once on each of the two channels: 28 approvals, more than the console's page of 25. */
const SENDS = 14
const PER_PAGE = 25

const { db, node, receiver, sink } = useNode({
  label: "console_approvals_routes",
  env: { ALLOW_PRIVATE_URLS: "true" },
  smtp: true,
  receiver: true
})

beforeAll(async () => {
  desk = await openDesk(node, {
    name: "Paged desk",
    webhookUrl: receiver.url,
    members: [{ email: REVIEWER, role: "operations" }]
  })
  // Signed in before any post waits, so that the newest email to the reviewer is the sign-in link.
  session = await signInOverHttp(node, sink, REVIEWER)
  const reviewed = { surface: "tiktok", approval: "PER_POST", deliverByWebhook: true, deliverByEmail: false }
  channel.reviewed = await desk.channel({ ...reviewed, name: "Reviewed" })
  channel.second = await desk.channel({ ...reviewed, name: "Second <desk>" })
  // One video (rendered once), a title each.
  for (let i = 1; i <= SENDS; i++) {
    await desk.send({ ...content, metaData: { ...content.metaData, title: `Gold report ${i}` } })
  }
  await until(
    "every post waiting",
    () => query(db.url, "SELECT id FROM approvals WHERE workspace_id = $1 AND state = 'PENDING'", [desk.accountId]),
    (rows) => rows.length === 2 * SENDS,
    300_000,
    500
  )
}, 420_000)

const page = async (path: string) => {
  const answer = await fetch(`${node.url}${path}`, { redirect: "manual", headers: withSession(session) })
  return { status: answer.status, html: await answer.text() }
}

/** The approvals a page lists, in order. */
const listed = (html: string) =>
  [...html.matchAll(/<article class="card approval" aria-labelledby="title-([0-9A-Za-z]+)">/g)].map((m) => m[1]!)

/** The paging link of a page (`rel="next"` or `"prev"`), as the browser would follow it. */
const pagingLink = (html: string, rel: "next" | "prev") => {
  const found = new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(html)
  return found === null ? undefined : found[1]!.replaceAll("&amp;", "&")
}

const apiIds = async (search: string) => {
  const answer = await desk.api.get(`/v1/approvals?${search}`)
  expect(answer.status, answer.text).toBe(200)
  return answer.body.approvals.map((a: { id: string }) => a.id) as Array<string>
}

describe("/console/approvals as HTML", () => {
  it("pages the waiting posts 25 at a time, in the order and pages the API answers", async () => {
    const first = await page("/console/approvals")
    expect(first.status).toBe(200)
    const ids = listed(first.html)
    expect(ids).toHaveLength(PER_PAGE)
    expect(first.html).toContain("Page 1 of 2")
    expect(pagingLink(first.html, "prev")).toBeUndefined()
    expect(ids).toEqual(await apiIds(`state=PENDING&perPage=${PER_PAGE}&page=1`))

    const next = pagingLink(first.html, "next")
    expect(next).toBe("/console/approvals?state=PENDING&page=2")
    const second = await page(next!)
    const rest = listed(second.html)
    expect(rest).toHaveLength(2 * SENDS - PER_PAGE)
    expect(rest.filter((id) => ids.includes(id))).toEqual([])
    expect(rest).toEqual(await apiIds(`state=PENDING&perPage=${PER_PAGE}&page=2`))
    expect(second.html).toContain("Page 2 of 2")
    expect(pagingLink(second.html, "next")).toBeUndefined()
    expect(pagingLink(second.html, "prev")).toBe("/console/approvals?state=PENDING")
  })

  it("filters by channel: only that channel's posts, the choice kept in the form", async () => {
    const filtered = await page(`/console/approvals?state=PENDING&channelId=${channel.second}`)
    const ids = listed(filtered.html)
    expect(ids).toHaveLength(SENDS)
    expect(ids).toEqual(await apiIds(`state=PENDING&channelId=${channel.second}&perPage=${PER_PAGE}`))
    // The channel's name is text, on every card and in the chosen option.
    expect(filtered.html.match(/<dd>Second &lt;desk><\/dd>/g)).toHaveLength(SENDS)
    expect(filtered.html).not.toContain("<dd>Reviewed</dd>")
    expect(filtered.html).toContain(`<option value="${channel.second}" selected>Second &lt;desk></option>`)
    expect(filtered.html).toContain("Page 1 of 1")
    // Another workspace's channel (or none) filters nothing away rather than showing nothing.
    expect(listed((await page("/console/approvals?channelId=ch_not_ours")).html)).toHaveLength(PER_PAGE)
  })

  it("rejects with a note: the decision shows who and why, and the post is never handed over", async () => {
    const [rejectedId, approvedId] = listed((await page(`/console/approvals?channelId=${channel.reviewed}`)).html)
    const own = await page(`/console/approvals/${rejectedId}`)
    expect(own.html).toContain(`<button type="submit" name="state" value="REJECTED" class="danger">Reject</button>`)
    const back = `/console/approvals/${rejectedId}`
    const cookie = { cookie: `${SESSION_COOKIE}=${session}` }
    const note = "Wrong figure <b>again</b>"
    const rejected = await formPost(node, back, { state: "REJECTED", note, back }, cookie)
    expect(rejected.status).toBe(303)
    expect(rejected.headers.get("location")).toBe(`${back}?rejected=1`)

    const after = await page(`${back}?rejected=1`)
    expect(after.html).toMatch(
      new RegExp(`<p class="decision rejected" role="status"><strong>Rejected</strong><span> by user:${REVIEWER} on`)
    )
    expect(after.html).toContain("<q>Wrong figure &lt;b>again&lt;/b></q>")
    expect(after.html).not.toContain(`value="REJECTED"`)
    expect(after.html).not.toContain(`value="APPROVED"`)
    const api = await desk.api.get(`/v1/approvals?state=REJECTED`)
    expect(api.body.approvals).toEqual([
      expect.objectContaining({ id: rejectedId, decidedBy: `user:${REVIEWER}`, note })
    ])

    // Approve another after it: once that one is handed over, the rejected one would have been too.
    const approvedBack = `/console/approvals/${approvedId}`
    const approved = await formPost(node, approvedBack, { state: "APPROVED", back: approvedBack }, cookie)
    expect(approved.status).toBe(303)
    const jobOf = async (id: string) =>
      (await query(db.url, "SELECT job_id FROM approvals WHERE id = $1", [id]))[0]!["job_id"] as string
    const [rejectedJob, approvedJob] = [await jobOf(rejectedId!), await jobOf(approvedId!)]
    const handedOver = (calls: typeof receiver.calls) =>
      calls.flatMap((c) => c.json.data.posts.map((p) => String(p["postGroupId"])))
    await until(
      "the approved post handed over",
      async () => handedOver(receiver.calls),
      (groups) => groups.includes(approvedJob),
      120_000,
      250
    )
    expect(handedOver(receiver.calls)).not.toContain(rejectedJob)
    const states = await query(db.url, "SELECT state FROM posts WHERE job_id = $1", [rejectedJob])
    expect(states.map((row) => row["state"])).not.toContain("PUBLISHED")
  })
})

describe("/console", () => {
  it("links what needs attention to console pages, a failed job to its own page, none to /v1", async () => {
    // A render that fails is slow to arrange; the job's row is set as a failed one reads.
    const [job] = await query(
      db.url,
      `UPDATE jobs SET status = 'RENDER_FAILED', error = 'Renderer gave up' WHERE id =
         (SELECT job_id FROM approvals WHERE workspace_id = $1 AND state = 'PENDING' ORDER BY id LIMIT 1)
       RETURNING id, status`,
      [desk.accountId]
    )
    const home = await page("/console")
    expect(home.status).toBe(200)
    expect(home.html).toContain(`<a href="/console/jobs/${job!["id"]}">${job!["status"]} · `)
    expect(home.html).toContain(`<a href="/console/pipeline">The pipeline</a>`)
    expect(home.html).toContain(`<a href="/console/approvals?state=PENDING">`)
    expect(home.html).not.toContain(`href="/v1/`)
  })
})
