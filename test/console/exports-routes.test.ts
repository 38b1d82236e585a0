import { beforeAll, describe, expect, it } from "vitest"
import { admin, call, client } from "../support/Client.js"
import { query } from "../support/Database.js"
import { compactExample, MARKET } from "../support/Exports.js"
import { formPost, signInOverHttp, withSession } from "../support/People.js"
import { useNode } from "../support/Rig.js"

let home: { accountId: string }
let example: Record<string, unknown>
const OPS = "ops@exports.test"
const MEMBER = "member@exports.test"
const STRANGER = "owner@elsewhere.test"
const COMPACT = `${MARKET}/compact`
const sessions: Record<string, string> = {}

const page = async (path: string, sessionId: string) => {
  const answer = await fetch(`${node.url}${path}`, { redirect: "manual", headers: withSession(sessionId) })
  return { status: answer.status, html: await answer.text(), location: answer.headers.get("location") }
}
const start = async (sessionId: string, fields: Record<string, string>) => {
  const sent = {
    template: COMPACT,
    version: "1.0.1",
    ratio: "1x1",
    title: "",
    data: JSON.stringify(example),
    ...fields
  }
  const answer = await formPost(node, "/console/exports", sent, { cookie: withSession(sessionId).cookie })
  return { status: answer.status, html: await answer.text(), location: answer.headers.get("location") }
}
const stored = async () =>
  (await query(db.url, "SELECT count(*)::int AS n FROM exports WHERE workspace_id = $1", [home.accountId]))[0]!.n

const { db, node, sink } = useNode({ label: "console_exports", smtp: true })

beforeAll(async () => {
  const a = admin(node)
  home = await a.workspace("Exports desk", "owner@exports.test")
  await a.workspace("Elsewhere", STRANGER)
  await a.member(home.accountId, OPS, "operations")
  await a.member(home.accountId, MEMBER, "member")
  example = await compactExample(client(node))
  for (const email of [OPS, MEMBER, STRANGER]) sessions[email] = await signInOverHttp(node, sink, email)
}, 120_000)

describe("/console/exports", () => {
  it("offers every cleared template and prefills the chosen build's example and shapes", async () => {
    const first = await page("/console/exports", sessions[OPS]!)
    expect(first.status).toBe(200)
    expect(first.html).toContain(`<option value="${COMPACT}">Market move · compact</option>`)
    expect(first.html).toContain("<textarea id=\"export-data\" name=\"data\"")
    const chosen = await page(`/console/exports?template=${encodeURIComponent(COMPACT)}`, sessions[OPS]!)
    expect(chosen.html).toContain(`<option value="${COMPACT}" selected>`)
    expect(chosen.html).toContain("<input type=\"hidden\" name=\"version\" value=\"1.0.1\"")
    for (const ratio of ["9x16", "4x5", "1x1"]) expect(chosen.html).toContain(`value="${ratio}"`)
    const described = await client(node).get(`/v1/formats/template/${MARKET}?variant=compact`)
    const prefilled = /<textarea id="export-data"[^>]*>([\s\S]*?)<\/textarea>/.exec(chosen.html)![1]!
    const unescaped = prefilled.replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&#34;/g, "\"")
      .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
    expect(JSON.parse(unescaped)).toEqual(described.body.example)
  })

  it("refuses data that is not JSON or does not fit, naming the field, with 400 and nothing stored", async () => {
    const notJson = await start(sessions[OPS]!, { data: "{\"clipData\": " })
    expect(notJson.status).toBe(400)
    expect(notJson.html).toContain("The data is not JSON.")
    expect(notJson.html).toMatch(/<ul class="field-errors" id="data-errors"><li>\/data: not JSON/)
    expect(notJson.html).toContain("aria-invalid=\"true\"")
    // What was typed stays in the field, escaped.
    expect(notJson.html).toMatch(/\{(&quot;|&#34;)clipData(&quot;|&#34;): <\/textarea>/)

    const clipData = example["clipData"] as Record<string, unknown>
    const unfit = await start(sessions[OPS]!, { data: JSON.stringify({ ...example, clipData: { ...clipData, x: 1 } }) })
    expect(unfit.status).toBe(400)
    expect(unfit.html).toContain("The content does not fit the template build.")
    expect(unfit.html).toMatch(/<li>\/data\/clipData[^<]*<\/li>/)

    const images = [{ url: "media://nowhere.jpg" }]
    const picture = await start(sessions[OPS]!, {
      data: JSON.stringify({ ...example, clipData: { ...clipData, images } })
    })
    expect(picture.status).toBe(400)
    expect(picture.html).toContain("A picture is not in the media library.")
    expect(picture.html).toContain("/data/clipData/images/0/url: no picture media://nowhere.jpg in the media library")

    const shape = await start(sessions[OPS]!, { ratio: "16x9" })
    expect(shape.status).toBe(400)
    expect(shape.html).toMatch(/does not come in 16x9/)
    expect(shape.html).toContain("<option value=\"1x1\">")
    const longTitle = await start(sessions[OPS]!, { title: "t".repeat(121) })
    expect(longTitle.status).toBe(400)
    expect(longTitle.html).toMatch(/<ul class="field-errors" id="title-errors"><li>\/title: /)
    const unknown = await start(sessions[OPS]!, { template: "tpl_nope/compact" })
    expect(unknown.status).toBe(404)
    expect(unknown.html).toContain("No template tpl_nope")
    expect(await stored()).toBe(0)
  })

  it("starts an export as user:<email>, shows its page and polls its progress; a member may only look", async () => {
    const member = await page("/console/exports", sessions[MEMBER]!)
    expect(member.status).toBe(200)
    expect(member.html).not.toContain("Start export")
    expect(member.html).toContain("Members see the exports")
    expect((await start(sessions[MEMBER]!, {})).status).toBe(403)
    expect(await stored()).toBe(0)

    const started = await start(sessions[OPS]!, { title: "Gold <b>climbs</b>" })
    expect(started.status, started.html).toBe(303)
    const jobId = /^\/console\/exports\/(\w+)$/.exec(started.location ?? "")![1]!
    const rows = await query(db.url, "SELECT created_by, title FROM exports WHERE id = $1", [jobId])
    expect(rows[0]).toMatchObject({ created_by: `user:${OPS}`, title: "Gold <b>climbs</b>" })

    const shown = await page(started.location!, sessions[OPS]!)
    expect(shown.status).toBe(200)
    expect(shown.html).toContain("<h1 id=\"export-title\">Gold &lt;b>climbs&lt;/b></h1>")
    expect(shown.html).toContain(`by user:${OPS}`)
    expect(shown.html).toContain("aria-live=\"polite\"")
    const progress = await page(`${started.location}/progress`, sessions[OPS]!)
    expect(progress.status).toBe(200)
    expect(progress.html).toMatch(/^<div id="export-progress"/)
    expect(progress.html).not.toContain("<html")
    // Still drawing: the block asks for itself again; finished: the video and Download.
    expect(progress.html).toMatch(new RegExp(`hx-get="/console/exports/${jobId}/progress"|<video`))

    const list = await page("/console/exports", sessions[MEMBER]!)
    expect(list.html).toContain(`<a href="/console/exports/${jobId}">Market move compact 1.0.1</a>`)
    expect((await page(started.location!, sessions[MEMBER]!)).status).toBe(200)

    // Another workspace's person: as if there were no such export.
    for (const path of [started.location!, `${started.location}/progress`]) {
      const stranger = await page(path, sessions[STRANGER]!)
      expect(stranger.status, path).toBe(404)
      expect(stranger.html).not.toContain("climbs")
    }
    expect((await page("/console/exports", sessions[STRANGER]!)).html).not.toContain(jobId)
    expect((await page("/console/exports/not-an-id!", sessions[OPS]!)).status).toBe(404)

    // Discarded through the API with the same session: its page is gone too (and the render stops).
    const discarded = await call(node.url, "POST", `/v1/direct-export/video/${jobId}/discard`, {
      headers: withSession(sessions[OPS]!)
    })
    expect(discarded.status, discarded.text).toBe(200)
    expect((await page(started.location!, sessions[OPS]!)).status).toBe(404)
  })
})
