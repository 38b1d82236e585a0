import { beforeAll, describe, expect, it } from "vitest"
import { formPost, signInOverHttp, withSession } from "../support/People.js"
import { useNode } from "../support/Rig.js"
import { FILLER, HOSTILE_ANSWER, HOSTILE_ERROR, HOSTILE_TITLE, seedDeliveries } from "./DeliveriesSeed.js"

let seeded: Awaited<ReturnType<typeof seedDeliveries>>
const session = { owner: "", member: "" }
const OWNER = "owner@deliveries.test"
const MEMBER = "member@deliveries.test"

const { db, node, sink } = useNode({ label: "console_deliveries", smtp: true })

beforeAll(async () => {
  seeded = await seedDeliveries(node, db.url, OWNER, MEMBER)
  session.owner = await signInOverHttp(node, sink, OWNER)
  session.member = await signInOverHttp(node, sink, MEMBER)
}, 120_000)

const page = async (path: string, who: keyof typeof session = "owner") => {
  const answer = await fetch(`${node.url}${path}`, { redirect: "manual", headers: withSession(session[who]) })
  return { status: answer.status, html: await answer.text(), location: answer.headers.get("location") }
}

/** The delivery links of a list page, in order. */
const listed = (html: string) =>
  [...html.matchAll(/<a href="\/console\/deliveries\/([^"?]+)">/g)].map((m) => decodeURIComponent(m[1]!))

const rowsMarkedDead = (html: string) => html.match(/<tr class="dead">/g)?.length ?? 0

describe("/console/deliveries", () => {
  it("lists the workspace's deliveries newest first, 50 a page, with the dead one marked in words", async () => {
    const first = await page("/console/deliveries")
    expect(first.status).toBe(200)
    const ids = listed(first.html)
    expect(ids).toHaveLength(50)
    expect(ids.slice(0, 3)).toEqual([seeded.ids.retrying, seeded.ids.email, seeded.ids.dead])
    expect(ids).not.toContain(seeded.ids.theirs)
    expect(first.html).toContain(
      `<a href="/console/deliveries?state=DEAD">1 delivery is dead: every attempt failed</a>`
    )
    expect(rowsMarkedDead(first.html)).toBe(1)
    expect(first.html).toMatch(/<tr class="dead"><td data-label="State"><span class="badge state-dead">.*Dead<\/span>/)
    expect(first.html).toContain("<span>Page 1</span>")
    expect(first.html).toContain(`<a href="/console/deliveries?page=2" rel="next">Next</a>`)
    expect(first.html).not.toContain(`rel="prev"`)
    // The channel's name is text, and the last answer shows the status code and error.
    expect(first.html).toContain("Telegram &lt;DE>")
    expect(first.html).toContain("500 · HTTP 500 &lt;b>bold&lt;/b>")
    expect(first.html).toContain(`aria-current="page">Deliveries</a>`)

    const second = await page("/console/deliveries?page=2")
    const rest = listed(second.html)
    expect(rest).toHaveLength(3 + FILLER - 50)
    expect(rest.filter((id) => ids.includes(id))).toEqual([])
    expect(second.html).toContain("<span>Page 2</span>")
    expect(second.html).toContain(`<a href="/console/deliveries" rel="prev">Previous</a>`)
    expect(second.html).not.toContain(`rel="next"`)
  })

  it("filters by state, via, event type and channel, keeping the filter in the paging links", async () => {
    const dead = await page("/console/deliveries?state=DEAD&via=&event=&channelId=")
    expect(listed(dead.html)).toEqual([seeded.ids.dead])
    expect(dead.html).toMatch(/<option value="DEAD" selected>Dead<\/option>/)
    expect(listed((await page("/console/deliveries?via=email")).html)).toEqual([seeded.ids.email])
    expect(listed((await page("/console/deliveries?event=post.delete")).html)).toEqual([seeded.ids.retrying])
    const telegram = await page(`/console/deliveries?channelId=${seeded.channels.telegram}`)
    expect(listed(telegram.html)).toEqual([seeded.ids.dead])
    expect(listed((await page(`/console/deliveries?channelId=${seeded.channels.shorts}&via=webhook`)).html))
      .toEqual([])
    const delivered = await page("/console/deliveries?state=DELIVERED&via=webhook")
    expect(listed(delivered.html)).toHaveLength(50)
    expect(delivered.html).toContain(
      `<a href="/console/deliveries?state=DELIVERED&via=webhook&page=2" rel="next">Next</a>`
    )
    const rest = await page("/console/deliveries?state=DELIVERED&via=webhook&page=2")
    expect(listed(rest.html)).toHaveLength(FILLER - 50)
    expect(rest.html).not.toContain(`rel="next"`)
    const past = await page("/console/deliveries?page=9")
    expect(past.status).toBe(200)
    expect(past.html).toContain("Nothing here: no delivery matches.")
  })

  it("answers a filter it does not understand with a message on the page (400), listing nothing", async () => {
    for (const query of ["state=LOST", "via=pigeon", "event=post.like", "page=0", "page=two"]) {
      const bad = await page(`/console/deliveries?${query}`)
      expect(bad.status, query).toBe(400)
      expect(bad.html).toContain("Not understood: choose State, Via, Event type and Channel from the form")
      expect(listed(bad.html)).toEqual([])
    }
    const foreign = await page("/console/deliveries?channelId=nope")
    expect(foreign.status).toBe(400)
    expect(foreign.html).toContain("There is no such channel in this workspace.")
  })
})

describe("/console/deliveries/{id}", () => {
  it("shows each attempt and what was sent, every piece of the receiver's answer and the body as text", async () => {
    const { html, status } = await page(`/console/deliveries/${seeded.ids.dead}`)
    expect(status).toBe(200)
    const escaped = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll("\"", "&#34;")
    expect(html).not.toContain(HOSTILE_ANSWER)
    expect(html).not.toContain("<script>alert")
    expect(html).not.toContain("<img")
    expect(html).not.toContain("<b>bold")
    expect(html.split(escaped(HOSTILE_ANSWER)).length - 1).toBe(2)
    expect(html).toContain(escaped(HOSTILE_ERROR))
    // The body as it was sent: the title's markup inside the JSON is text too.
    expect(html).toContain(escaped(JSON.stringify(HOSTILE_TITLE).slice(1, -1)))
    expect(html).toContain(`webhook-signature: v1,&lt;sig>`)
    expect(html).toContain(`webhook-id: ${seeded.ids.dead}`)
    expect(html).toContain("Attempt 1</h3>")
    expect(html).toContain("Attempt 2</h3>")
    expect(html).toContain("https://receiver.example/hooks")
    expect(html).toMatch(/<div class="card delivery dead">/)
    expect(html).toContain(">Redeliver</button>")
  })

  it("shows an email's recipients and message, without Redeliver once delivered", async () => {
    const { html } = await page(`/console/deliveries/${seeded.ids.email}`)
    expect(html).toContain("owner@example.com")
    expect(html).toContain("Subject: Copper slips")
    expect(html).not.toContain(">Redeliver</button>")
  })

  it("answers another workspace's delivery and an unknown id with the same 404 page", async () => {
    for (const id of [seeded.ids.theirs, "01JUNKNOWN0000000000000000", "bad%20id"]) {
      const missing = await page(`/console/deliveries/${id}`)
      expect(missing.status, id).toBe(404)
      expect(missing.html).toContain("There is no such delivery in this workspace.")
    }
    const post = await formPost(
      node,
      `/console/deliveries/${seeded.ids.theirs}/redeliver`,
      {},
      withSession(session.owner)
    )
    expect(post.status).toBe(404)
  })

  it("shows a member no button and refuses the member's Redeliver (403)", async () => {
    const seen = await page(`/console/deliveries/${seeded.ids.dead}`, "member")
    expect(seen.status).toBe(200)
    expect(seen.html).not.toContain(">Redeliver</button>")
    const refused = await formPost(
      node,
      `/console/deliveries/${seeded.ids.dead}/redeliver`,
      {},
      withSession(session.member)
    )
    expect(refused.status).toBe(403)
    expect(await refused.text()).toContain("the owner and Operations redeliver them")
  })

  it("refuses a Redeliver sent from another site, and says why a delivered one is not sent again", async () => {
    const crossSite = await formPost(node, `/console/deliveries/${seeded.ids.dead}/redeliver`, {}, {
      ...withSession(session.owner),
      "sec-fetch-site": "cross-site"
    })
    expect(crossSite.status).toBe(403)
    const done = await formPost(
      node,
      `/console/deliveries/${seeded.ids.email}/redeliver`,
      {},
      withSession(session.owner)
    )
    expect(done.status).toBe(303)
    expect(done.headers.get("location")).toBe(`/console/deliveries/${seeded.ids.email}?outcome=refused`)
    const after = await page(done.headers.get("location")!)
    expect(after.html).toContain(
      "Not redelivered: only a dead or retrying delivery is sent again, and this one is delivered."
    )
  })
})

describe("/console", () => {
  it("lists the dead delivery marked Dead, linking to its console page and to the dead ones", async () => {
    const { html } = await page("/console")
    expect(html).toContain(`<a href="/console/deliveries/${seeded.ids.dead}">post.publish by webhook</a>`)
    expect(html).toContain(`<a href="/console/deliveries?state=DEAD">All 1 dead deliveries</a>`)
    expect(html).toMatch(/<ul class="plain dead-deliveries"><li><span class="badge state-dead">/)
    expect(html).not.toContain("/v1/deliveries")
  })
})
