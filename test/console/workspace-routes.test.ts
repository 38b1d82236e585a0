import { beforeAll, describe, expect, it } from "vitest"
import { admin, call } from "../support/Client.js"
import { query } from "../support/Database.js"
import { formPost, signInOverHttp, withSession } from "../support/People.js"
import { useNode } from "../support/Rig.js"

let home: { accountId: string }
let other: { accountId: string }
const OWNER = "owner@workspace.test"
const OPS = "ops@workspace.test"
const MEMBER = "member@workspace.test"
const WEBHOOK = "http://127.0.0.1:9/hooks/clipwright?team=desk&x=<i>"
const sessions: Record<string, string> = {}

const page = async (path: string, sessionId: string) => {
  const answer = await fetch(`${node.url}${path}`, { redirect: "manual", headers: withSession(sessionId) })
  return { status: answer.status, html: await answer.text(), location: answer.headers.get("location") }
}
const post = async (path: string, sessionId: string, fields: Record<string, string>) => {
  const answer = await formPost(node, path, fields, { cookie: withSession(sessionId).cookie })
  return { status: answer.status, html: await answer.text(), location: answer.headers.get("location") }
}
const quota = async () =>
  (await call(node.url, "GET", "/v1/renders/quota", { headers: withSession(sessions[OWNER]!) })).body.quota

const { db, node, sink } = useNode({ label: "console_workspace", env: { ALLOW_PRIVATE_URLS: "true" }, smtp: true })

beforeAll(async () => {
  const a = admin(node)
  home = await a.workspace("Home <Desk>", OWNER)
  other = await a.workspace("Other", "someone@workspace.test")
  await a.member(home.accountId, OPS, "operations")
  await a.member(home.accountId, MEMBER, "member")
  await a.member(other.accountId, OPS, "member")
  expect((await a.put(`/admin/workspaces/${home.accountId}/webhook`, { url: WEBHOOK })).status).toBe(200)
  for (const email of [OWNER, OPS, MEMBER]) sessions[email] = await signInOverHttp(node, sink, email)
}, 120_000)

describe("/console/workspace", () => {
  it("shows the owner the allowance, when it renews, storage by share, the people, the webhook and the forms", async () => {
    const { html, status } = await page("/console/workspace", sessions[OWNER]!)
    expect(status).toBe(200)
    const q = await quota()
    expect(html).toContain("<h1>Home &lt;Desk></h1>")
    expect(html).not.toContain("Home <Desk>")
    expect(html).toContain("500 videos a month")
    expect(html).toMatch(/<dt>Left<\/dt>\s*<dd>500<\/dd>/)
    expect(html).toContain(`${q.periodEnd.slice(0, 10)} 00:00 UTC`)
    expect(html).toMatch(/Media library: 0 MB of [\d,.]+ MB \(0%\)/)
    expect(html).toMatch(/Rendered clips: 0 MB of [\d,.]+ MB \(0%\)/)
    expect(html).toContain("Renders used: 0 of 500 (0%)")
    expect(html).toContain("<meter")
    for (const [email, role] of [[OWNER, "Owner"], [OPS, "Operations"], [MEMBER, "Member"]]) {
      expect(html).toMatch(new RegExp(`<td class="wrap">${email}</td>\\s*<td>${role}</td>`))
    }
    expect(html).toContain("http://127.0.0.1:9/hooks/clipwright?team=desk&amp;x=&lt;i>")
    expect(html).toContain("Set by the operator")
    for (const action of ["buy", "keep", "drop"]) expect(html).toContain(`action="/console/workspace/${action}"`)
    expect(html).toMatch(/<a href="\/console\/workspace" aria-current="page">Workspace<\/a>/)
  })

  it("shows Operations and members the same facts without a form, and refuses their buy, keep and drop", async () => {
    for (const email of [OPS, MEMBER]) {
      const { html, status } = await page("/console/workspace", sessions[email]!)
      expect(status).toBe(200)
      expect(html).toContain("500 videos a month")
      expect(html).not.toContain("<form method=\"post\" action=\"/console/workspace/")
      for (const action of ["buy", "keep", "drop"]) {
        const refused = await post(`/console/workspace/${action}`, sessions[email]!, { renders: "5" })
        expect(refused.status, `${email} ${action}`).toBe(403)
        expect(refused.html).toContain("Only the workspace&#39;s owner")
      }
    }
    expect((await quota()).extra).toBe(0)
  })

  it("buys up to the operator's ceiling, keeps for next month and drops, saying what happened or why not", async () => {
    const owner = sessions[OWNER]!
    const none = await post("/console/workspace/buy", owner, { renders: "5" })
    expect(none.status).toBe(409)
    expect(none.html).toContain("The operator allows no extra renders for this workspace")
    expect(none.html).toContain("role=\"alert\"")
    await admin(node).put(`/admin/workspaces/${home.accountId}/limits`, { extraCeiling: 100 })

    const bought = await post("/console/workspace/buy", owner, { renders: "60" })
    expect(bought.status).toBe(303)
    expect(bought.location).toBe("/console/workspace?done=buy&renders=60")
    const after = await page(bought.location!, owner)
    expect(after.html).toContain("60 extra renders bought for this month.")
    expect(after.html).toMatch(/<dt>Left<\/dt>\s*<dd>560<\/dd>/)

    const over = await post("/console/workspace/buy", owner, { renders: "41" })
    expect(over.status).toBe(409)
    expect(over.html).toContain("40 more may be bought this month")
    for (const renders of ["", "0", "abc", "2.5", "1000001", "-3"]) {
      const bad = await post("/console/workspace/buy", owner, { renders })
      expect(bad.status, renders).toBe(400)
      expect(bad.html).toContain("a whole number from 1 to 1,000,000")
    }
    expect((await quota()).extra).toBe(60)

    const kept = await post("/console/workspace/keep", owner, { renders: "25" })
    expect(kept.location).toBe("/console/workspace?done=keep&renders=25")
    const keptPage = await page(kept.location!, owner)
    expect(keptPage.html).toMatch(/25 extra renders kept for the month from \d{4}-\d{2}-01\./)
    expect(keptPage.html).toMatch(/<dt>Kept for next month<\/dt>\s*<dd>25 extra renders<\/dd>/)
    const tooMany = await post("/console/workspace/keep", owner, { renders: "36" })
    expect(tooMany.status).toBe(409)
    expect(tooMany.html).toContain("Only 35 extra renders of this month are unused.")
    expect((await post("/console/workspace/keep", owner, { renders: "x" })).status).toBe(400)

    const dropped = await post("/console/workspace/drop", owner, { renders: "" })
    expect(dropped.location).toBe("/console/workspace?done=drop&renders=35")
    expect((await page(dropped.location!, owner)).html).toContain("35 extra renders dropped.")
    const nothing = await post("/console/workspace/drop", owner, {})
    expect(nothing.status).toBe(409)
    expect(nothing.html).toContain("This month has no unused extra renders to drop.")
    expect(await quota()).toMatchObject({ extra: 0, remaining: 500 })
  })

  it("refuses a buy sent from another site, and sends a person without a session to sign in", async () => {
    const cross = await formPost(node, "/console/workspace/buy", { renders: "1" }, {
      cookie: withSession(sessions[OWNER]!).cookie,
      "sec-fetch-site": "cross-site"
    })
    expect(cross.status).toBe(403)
    const anonymous = await fetch(`${node.url}/console/workspace`, { redirect: "manual" })
    expect(anonymous.status).toBe(303)
    expect(anonymous.headers.get("location")).toBe("/console/sign-in?next=%2Fconsole%2Fworkspace")
  })

  it("keeps the switcher's POST to /console/workspace working, and then shows the other workspace", async () => {
    const switched = await post("/console/workspace", sessions[OPS]!, { workspaceId: other.accountId })
    expect(switched.status).toBe(303)
    expect(switched.location).toBe("/console")
    const { html } = await page("/console/workspace", sessions[OPS]!)
    expect(html).toContain("<h1>Other</h1>")
    expect(html).not.toContain(OWNER)
    expect(html).toContain("No webhook address is set")
    const rows = await query(db.url, "SELECT count(*)::int AS n FROM members WHERE workspace_id = $1", [
      other.accountId
    ])
    expect(html).toContain(`${rows[0]!.n} people.`)
    const refused = await post("/console/workspace", sessions[MEMBER]!, { workspaceId: other.accountId })
    expect(refused.status).toBe(403)
  })
})
