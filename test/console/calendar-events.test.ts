import { beforeAll, describe, expect, it } from "vitest"
import type { client } from "../support/Client.js"
import { INDEX_CLOSE, sendForLater, settledJobs } from "../support/Jobs.js"
import { deskOfThree, formPost, signInOverHttp, withSession } from "../support/People.js"
import { useNode } from "../support/Rig.js"
import { MARKET, newEventId } from "../support/Routes.js"

let api: ReturnType<typeof client>
const sessions = { owner: "", member: "", other: "" }
const jobs: Array<string> = []
const events = { accepted: "", unmapped: "" }
const OWNER = "owner@calendar.test"
const MEMBER = "member@calendar.test"
const OTHER = "other@calendar.test"
// Berlin changes to summer time at 01:00 UTC on 28 March 2027: the first post is 00:30 (CET) on the 28th there, the
// second 00:30 (CEST) on the 29th; in UTC they fall on the 27th and the 28th.
const FIRST = "2027-03-27T23:30:00.000Z"
const SECOND = "2027-03-28T22:30:00.000Z"

const { db, node, sink } = useNode({ label: "console_calendar", smtp: true })

const data = (headline: string) => ({
  clipData: { headline, subline: "Bullion tops $2,400" },
  metaData: { title: "<b>Gold</b> at a record", captionMedium: "Gold climbed.", hashtags: ["gold"] }
})

beforeAll(async () => {
  const ws = await deskOfThree(node, "Calendar desk", { owner: OWNER, member: MEMBER, other: OTHER })
  api = ws.api
  expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
  const channel = (await api.post("/v1/channels", { name: "Reels <Berlin>" })).body.channel
  const sub = await api.post(`/v1/channels/${channel.id}/subscriptions`, { ...INDEX_CLOSE, templateVariant: "compact" })
  expect(sub.status, sub.text).toBe(201)
  // Two posts of one video (rendered once), due either side of the change to summer time.
  for (const at of [FIRST, SECOND]) events.accepted = (await sendForLater(api, data("Gold climbs"), at)).ingestEventId
  // A stream nobody listens to: 26 events matching nothing, and one whose content does not fit.
  const quiet = (await api.post("/v1/streams", { name: "Quiet", templateId: MARKET })).body.stream
  const send = (content: unknown) =>
    api.post("/v1/stream", {
      streamId: quiet.id,
      eventId: newEventId(),
      occurredAt: new Date().toISOString(),
      data: content
    })
  for (let i = 0; i < 26; i++) expect((await send(data(`Quiet ${i}`))).status).toBe(202)
  events.unmapped =
    (await send({ clipData: { headline: 42, subline: "<script>alert(1)</script>" } })).body.ingestEventId
  sessions.owner = await signInOverHttp(node, sink, OWNER)
  sessions.member = await signInOverHttp(node, sink, MEMBER)
  sessions.other = await signInOverHttp(node, sink, OTHER)
  for (const job of await settledJobs(db.url, "workspace_id = $1", [ws.accountId])) jobs.push(job.id as string)
}, 240_000)

const get = async (path: string, session = sessions.owner, zone?: string) => {
  const cookie = zone === undefined ? "" : `; clipwright_zone=${encodeURIComponent(zone)}`
  const r = await fetch(`${node.url}${path}`, {
    redirect: "manual",
    headers: { ...withSession(session), cookie: `clipwright_session=${session}${cookie}` }
  })
  return { status: r.status, headers: r.headers, html: await r.text() }
}

/** The HTML of one day of a calendar page, from its heading to the next day. */
const dayOf = (html: string, date: string) => {
  const start = html.indexOf(`id="day-${date}"`)
  if (start < 0) return undefined
  const next = html.indexOf(`id="day-`, start + 10)
  return html.slice(start, next < 0 ? undefined : next)
}

const WEEK = "/console/calendar?view=week&date=2027-03-28"

describe("the calendar", () => {
  it("without the zone cookie shows UTC and says so; each post on its UTC day, linked to its job", async () => {
    const page = await get(WEEK)
    expect(page.status).toBe(200)
    expect(page.html).toContain("Times are in UTC: this browser has not told us its time zone yet")
    expect(page.html).toContain(`<script src="/console/assets/zone.js" defer></script>`)
    expect(page.html).not.toMatch(/<script(?![^>]*\bsrc=)/)
    expect(dayOf(page.html, "2027-03-22")).toContain("Monday 22 March 2027")
    expect(dayOf(page.html, "2027-03-27")).toContain(`<time datetime="${FIRST}">23:30</time>`)
    expect(dayOf(page.html, "2027-03-28")).toContain(`<time datetime="${SECOND}">22:30</time>`)
    expect(dayOf(page.html, "2027-03-29")).toBeUndefined()
    expect(page.html).toContain("&lt;b>Gold&lt;/b> at a record")
    expect(page.html).toContain("Reels &lt;Berlin> · Scheduled (scheduled)")
    for (const job of jobs) expect(page.html).toContain(`href="/console/jobs/${job}"`)
  })

  it("reads the days in the person's zone across the change to summer time", async () => {
    const week = await get(WEEK, sessions.owner, "Europe/Berlin")
    expect(week.html).toContain("Times are in Europe/Berlin.")
    // The week ends at Berlin's midnight in summer time (22:00 UTC): the second post is the next week's.
    expect(dayOf(week.html, "2027-03-28")).toContain(`<time datetime="${FIRST}">00:30</time>`)
    expect(week.html).not.toContain(SECOND)
    expect(dayOf(week.html, "2027-03-27")).toContain("No posts")
    const next = await get("/console/calendar?view=week&date=2027-03-29", sessions.owner, "Europe/Berlin")
    expect(dayOf(next.html, "2027-03-29")).toContain(`<time datetime="${SECOND}">00:30</time>`)
    expect(next.html).toContain(`href="/console/calendar?view=week&date=2027-03-22" rel="prev"`)
    const month = await get("/console/calendar?view=month&date=2027-03-10", sessions.owner, "Europe/Berlin")
    expect(month.html).toContain("<h2>March 2027</h2>")
    expect(month.html.match(/id="day-2027-03-\d\d"/g)).toHaveLength(31)
    expect(month.html).toContain("2 scheduled, 0 published.")
    expect(month.html).toContain("<li>Reels &lt;Berlin>: 2 scheduled, 0 published</li>")
    expect(month.html).toContain(`href="/console/calendar?view=month&date=2027-04-10" rel="next"`)
    // New York is behind: both posts fall on the evening before, in its winter time and then its summer time.
    const ny = await get(WEEK, sessions.owner, "America/New_York")
    expect(dayOf(ny.html, "2027-03-27")).toContain(`<time datetime="${FIRST}">19:30</time>`)
    expect(dayOf(ny.html, "2027-03-28")).toContain(`<time datetime="${SECOND}">18:30</time>`)
  })

  it("changes the zone by form (a cookie for the console), refusing an unknown zone with a message", async () => {
    const chosen = await formPost(node, "/console/calendar/zone", {
      zone: "Europe/Lisbon",
      view: "week",
      date: "2027-03-28"
    }, withSession(sessions.member))
    expect(chosen.status).toBe(303)
    expect(chosen.headers.get("location")).toBe(WEEK)
    const cookie = chosen.headers.getSetCookie().find((c) => c.startsWith("clipwright_zone="))!
    expect(cookie).toContain("clipwright_zone=Europe%2FLisbon")
    expect(cookie).toContain("Path=/console")
    for (const zone of ["Mars/Olympus_Mons", "<script>alert(1)</script>", ""]) {
      const refused = await formPost(node, "/console/calendar/zone", { zone }, withSession(sessions.owner))
      expect(refused.status).toBe(400)
      expect(refused.headers.getSetCookie()).toEqual([])
      const html = await refused.text()
      expect(html).toContain("no time zone this server knows")
      expect(html).not.toContain("<script>alert")
    }
    const unknown = await get(WEEK, sessions.owner, "Mars/Olympus_Mons")
    expect(unknown.status).toBe(200)
    expect(unknown.html).toContain("Times are in UTC: the time zone Mars/Olympus_Mons is not one this server knows.")
    expect(dayOf(unknown.html, "2027-03-27")).toContain("23:30")
  })

  it("answers a malformed date or view with a message, a member reads it, another workspace sees none of it", async () => {
    for (const query of ["view=year", "date=2027-02-30", "date=tomorrow"]) {
      const bad = await get(`/console/calendar?${query}`)
      expect(bad.status, query).toBe(400)
      expect(bad.html).toContain("Not understood")
    }
    const member = await get(WEEK, sessions.member)
    expect(member.status).toBe(200)
    expect(member.html).toContain("23:30")
    const other = await get(WEEK, sessions.other)
    expect(other.status).toBe(200)
    expect(other.html).toContain("0 scheduled, 0 published.")
    const script = await fetch(`${node.url}/console/assets/zone.js`)
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(await script.text()).toContain("Intl.DateTimeFormat().resolvedOptions().timeZone")
  })
})

describe("the ingest log", () => {
  it("filters by status and origin and pages by 25", async () => {
    const all = await get("/console/events")
    expect(all.html).toContain("29 of 29 received events match.")
    const quiet = await get("/console/events?status=NO_MATCH&origin=custom")
    expect(quiet.html).toContain("26 of 29 received events match.")
    expect(quiet.html.match(/<tr>/g)).toHaveLength(26)
    expect(quiet.html).toContain("Page 1 of 2")
    expect(quiet.html).toContain(`href="/console/events?status=NO_MATCH&origin=custom&page=2" rel="next"`)
    const second = await get("/console/events?status=NO_MATCH&origin=custom&page=2")
    expect(second.html.match(/<tr>/g)).toHaveLength(2)
    const manual = await get("/console/events?status=&origin=manual")
    expect(manual.html).toContain("2 of 29 received events match.")
    expect(manual.html).toContain(`<option value="ACCEPTED">Accepted (2)</option>`)
    for (const query of ["status=DONE", "origin=mars", "page=0"]) {
      const bad = await get(`/console/events?${query}`)
      expect(bad.status, query).toBe(400)
    }
  })

  it("shows an event's outcome, mapping errors and escaped document, and its jobs", async () => {
    const unmapped = await get(`/console/events/${events.unmapped}`)
    expect(unmapped.status).toBe(200)
    expect(unmapped.html).toContain("Unmapped: its content did not fit the template")
    expect(unmapped.html).toContain("Mapping errors")
    expect(unmapped.html).toContain("&lt;script>alert(1)&lt;/script>")
    expect(unmapped.html).not.toContain("<script>alert")
    expect(unmapped.html).toContain("This event made no job.")
    const accepted = await get(`/console/events/${events.accepted}`)
    expect(accepted.html).toContain("Accepted: it made 1 job.")
    expect(accepted.html).toMatch(/href="\/console\/jobs\/\w+"/)
    expect(accepted.html).toContain("Gold climbs")
    expect((await get(`/console/events/${events.accepted}`, sessions.other)).status).toBe(404)
    expect((await get("/console/events/not-an-id!")).status).toBe(404)
  })
})
