import { beforeAll, describe, expect, it } from "vitest"
import { packageBody } from "../queues/QueueDesk.js"
import type { client } from "../support/Client.js"
import { deskOfThree, formPost, signInOverHttp, withSession } from "../support/People.js"
import { useNode } from "../support/Rig.js"
import { MARKET } from "../support/Routes.js"

let api: ReturnType<typeof client>
let listId = ""
const sessions = { owner: "", member: "", other: "" }
const OWNER = "owner@lists.test"
const MEMBER = "member@lists.test"
const OTHER = "other@lists.test"
const BERLIN = "clipwright_zone=Europe%2FBerlin"

const { node, sink } = useNode({ label: "console_lists", smtp: true })

beforeAll(async () => {
  api = (await deskOfThree(node, "Lists desk", { owner: OWNER, member: MEMBER, other: OTHER })).api
  listId = (await api.post("/v1/queues", { name: "Evening <news>" })).body.queue.id
  sessions.owner = await signInOverHttp(node, sink, OWNER)
  sessions.member = await signInOverHttp(node, sink, MEMBER)
  sessions.other = await signInOverHttp(node, sink, OTHER)
}, 120_000)

const headers = (session: string) => ({ ...withSession(session), cookie: `clipwright_session=${session}; ${BERLIN}` })

const get = async (path: string, session = sessions.owner) => {
  const r = await fetch(`${node.url}${path}`, { redirect: "manual", headers: headers(session) })
  return { status: r.status, html: await r.text() }
}

const storedPosts = async () => (await api.get("/v1/queues")).body.queues[0].posts as Array<Record<string, any>>

const form = (overrides: Record<string, string> = {}) => ({
  title: "Gold at noon",
  templateId: MARKET,
  templateVariant: "compact",
  templateVersion: "",
  scheduledFor: "2027-01-15T10:00",
  data: JSON.stringify(packageBody().data),
  ...overrides
})

const schedule = (fields: Record<string, string>, session = sessions.owner) =>
  formPost(node, `/console/lists/${listId}/packages`, fields, headers(session))

/** The messages shown under one field of the form. */
const errorOf = (html: string, field: string) => {
  const match = new RegExp(`<ul class="field-error" id="${field}-error">(.*?)</ul>`).exec(html)
  return match === null ? undefined : match[1]!.replace(/<[^>]+>/g, " ").trim()
}

describe("the post lists' pages", () => {
  it("refuses a form the API would refuse, each error by its field, 400, nothing stored", async () => {
    const empty = await schedule(form({ title: " ", scheduledFor: "someday", data: "{ not json" }))
    expect(empty.status).toBe(400)
    const html = await empty.text()
    expect(errorOf(html, "title")).toBe("Enter a title.")
    expect(errorOf(html, "scheduledFor")).toContain("Enter a date and time")
    expect(errorOf(html, "data")).toContain("This is not JSON")
    expect(html).toContain(`id="title" name="title" type="text" maxlength="120" value=" " aria-invalid="true"`)

    const misfit = await schedule(form({ data: JSON.stringify({ clipData: { headline: 42 } }), title: "\"><b>x</b>" }))
    expect(misfit.status).toBe(400)
    const misfitHtml = await misfit.text()
    expect(errorOf(misfitHtml, "data")).toMatch(/\/clipData\/headline/)
    expect(errorOf(misfitHtml, "title")).toBeUndefined()
    expect(misfitHtml).toMatch(/value="&#34;(&gt;|>)(&lt;|<)b>x/)

    const past = await schedule(form({ scheduledFor: "2020-01-01T00:00" }))
    expect(past.status).toBe(400)
    expect(errorOf(await past.text(), "scheduledFor")).toContain("more than one minute in the past")
    const version = await schedule(form({ templateVersion: "9.9.9" }))
    expect(version.status).toBe(400)
    expect(errorOf(await version.text(), "templateVersion")).toBeDefined()
    const template = await schedule(form({ templateId: "tpl_nope" }))
    expect(template.status).toBe(400)
    expect(errorOf(await template.text(), "templateId")).toBeDefined()
    expect(await storedPosts()).toEqual([])
  })

  it("schedules in the person's zone, lists the post, and cancels it once", async () => {
    const made = await schedule(form())
    expect(made.status).toBe(303)
    expect(made.headers.get("location")).toBe(`/console/lists/${listId}?scheduled=Gold%20at%20noon`)
    const [post] = await storedPosts()
    // 10:00 in Berlin in January is 09:00 UTC.
    expect(post).toMatchObject({ title: "Gold at noon", scheduledFor: "2027-01-15T09:00:00.000Z", state: "SCHEDULED" })
    const page = await get(`/console/lists/${listId}?scheduled=Gold%20at%20noon`)
    expect(page.html).toContain(`Scheduled &#34;Gold at noon&#34;.`)
    expect(page.html).toContain("2027-01-15 10:00 Europe/Berlin")
    expect(page.html).toContain("<h1 class=\"wrap\">Evening &lt;news></h1>")
    const all = await get("/console/lists")
    expect(all.html).toContain("Evening &lt;news>")
    expect(all.html).toContain("Gold at noon")
    expect(all.html).not.toContain(">Cancel")

    const cancel = `/console/lists/${listId}/packages/${post!.id}/cancel`
    const cancelled = await formPost(node, cancel, {}, headers(sessions.owner))
    expect(cancelled.status).toBe(303)
    expect((await storedPosts())[0]!.state).toBe("CANCELLED")
    // As on the API, a cancel sent again changes nothing.
    const again = await formPost(node, cancel, {}, headers(sessions.owner))
    expect(again.status).toBe(303)
    expect((await storedPosts())[0]!.state).toBe("CANCELLED")
    expect((await get(`/console/lists/${listId}`)).html).not.toContain(">Cancel")
  })

  it("shows a member the lists without a form or Cancel, and refuses their POSTs", async () => {
    const page = await get(`/console/lists/${listId}`, sessions.member)
    expect(page.status).toBe(200)
    expect(page.html).not.toContain("Schedule a post")
    const before = (await storedPosts()).length
    expect((await schedule(form({ title: "Member's" }), sessions.member)).status).toBe(403)
    const scheduled = await api.post(`/v1/queues/${listId}/packages`, packageBody({ title: "Kept" }))
    const cancel = `/console/lists/${listId}/packages/${scheduled.body.package.id}/cancel`
    expect((await formPost(node, cancel, {}, headers(sessions.member))).status).toBe(403)
    expect((await storedPosts()).length).toBe(before + 1)
    expect((await storedPosts()).find((p) => p.title === "Kept")!.state).toBe("SCHEDULED")
    // Cross-site, even the owner's session is refused.
    const crossSite = await formPost(node, cancel, {}, { ...headers(sessions.owner), "sec-fetch-site": "cross-site" })
    expect(crossSite.status).toBe(403)
  })

  it("answers another workspace's list as not found", async () => {
    expect((await get(`/console/lists/${listId}`, sessions.other)).status).toBe(404)
    expect((await schedule(form(), sessions.other)).status).toBe(404)
    const posts = await storedPosts()
    const cancel = `/console/lists/${listId}/packages/${posts[posts.length - 1]!.id}/cancel`
    expect((await formPost(node, cancel, {}, headers(sessions.other))).status).toBe(404)
    expect((await get("/console/lists", sessions.other)).html).toContain("This workspace has no post list yet.")
  })
})
