import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { content, type Desk, openDesk, until } from "../delivery/HandOverDesk.js"
import { expectAccessible, newContext, screenshot, scrollWidth, signInWithBrowser } from "../support/Browser.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"

let desk: Desk
const REVIEWER = "ops@example.test"
const VIEWER = "viewer@example.test"

// Links carry PUBLIC_BASE_URL (http://localhost:<port>); the browser follows them on the node's loopback address.
const { browser, db, node, receiver, sink } = useNode({
  label: "console_approvals",
  env: { ALLOW_PRIVATE_URLS: "true" },
  smtp: true,
  receiver: true,
  browser: true
})

beforeAll(async () => {
  desk = await openDesk(node, {
    name: "Morning desk",
    webhookUrl: receiver.url,
    members: [{ email: REVIEWER, role: "operations" }, { email: VIEWER, role: "member" }]
  })
  await desk.channel({
    name: "Reviewed",
    surface: "tiktok",
    approval: "PER_POST",
    deliverByWebhook: true,
    deliverByEmail: false
  })
  // Three posts of one video (rendered once): one approved alone with a note, two together.
  for (const headline of ["Gold climbs to a record", "Gold holds its record", "Gold <b>slips</b>"]) {
    await desk.send({ ...content, metaData: { ...content.metaData, title: headline } })
  }
  await until(
    "three posts waiting",
    () => query(db.url, "SELECT id FROM approvals WHERE workspace_id = $1 AND state = 'PENDING'", [desk.accountId]),
    (rows) => rows.length === 3,
    240_000,
    500
  )
}, 300_000)

const signIn = (page: Page, email: string, start: string) => signInWithBrowser(page, node, sink, email, start)

const requestEmail = () =>
  until(
    "the approval request",
    async () => sink.messages.filter((m) => m.subject?.includes("for your approval") === true),
    (found) => found.length > 0,
    60_000
  ).then((found) => found[0]!)

const videoReady = (page: Page, n: number) =>
  page.waitForFunction(
    (want) => {
      const videos: Array<{ readyState: number }> = [...(globalThis as any).document.querySelectorAll("video")]
      return videos.length >= want && videos.every((v) => v.readyState >= 1)
    },
    n,
    { timeout: 30_000 }
  )

describe("the reviewer's console", () => {
  it(
    "opens the emailed approval, plays its video, approves it with a note and the post goes to the receiver",
    async () => {
      const { context, problems } = await newContext(browser)
      const page = await context.newPage()
      await page.setViewportSize({ width: 1280, height: 900 })

      const email = await requestEmail()
      expect(email.envelope.to).toContain(REVIEWER)
      expect(email.envelope.to).not.toContain(VIEWER)
      const link = /https?:\/\/\S+\/console\/approvals\/\w+/.exec(email.text ?? "")![0]
      const approvalPath = new URL(link).pathname
      await signIn(page, REVIEWER, approvalPath)

      await videoReady(page, 1)
      await expectAccessible(page)
      await screenshot(page, "approval.png")

      await page.getByLabel("Note").fill("Figures checked against the wire.")
      await page.getByRole("button", { name: "Approve", exact: true }).click()
      await page.waitForURL((url) => url.pathname === approvalPath)
      await expect.poll(() => page.getByRole("status").allTextContents()).toEqual(expect.arrayContaining([
        expect.stringContaining(`Approved by user:${REVIEWER}`)
      ]))
      expect(await page.locator(".decision").textContent()).toContain("Figures checked against the wire.")
      expect(await page.getByRole("button", { name: "Approve", exact: true }).count()).toBe(0)
      await expectAccessible(page)

      const [call] = await receiver.waitFor(1, 120_000)
      expect(call!.json.type).toBe("post.publish")
      const api = await desk.api.get("/v1/approvals?state=APPROVED")
      expect(api.body.approvals[0]).toMatchObject({
        decidedBy: `user:${REVIEWER}`,
        note: "Figures checked against the wire."
      })
      expect(problems).toEqual([])
      await context.close()
    },
    240_000
  )

  it(
    "lists the waiting posts with their videos, approves the selected together, and /console says what waits",
    async () => {
      const { context, problems } = await newContext(browser)
      const page = await context.newPage()
      await page.setViewportSize({ width: 1280, height: 900 })
      await signIn(page, REVIEWER, "/console/approvals")
      expect(await page.getByRole("article").count()).toBe(2)
      await videoReady(page, 2)
      await expectAccessible(page)
      await screenshot(page, "approvals.png")

      await page.goto(`${node.url}/console`)
      await expect.poll(() => page.getByRole("heading", { name: /Waiting for approval/ }).textContent()).toContain("2")
      await expectAccessible(page)
      await screenshot(page, "attention.png")

      await page.goto(`${node.url}/console/approvals`)
      for (const box of await page.getByRole("checkbox").all()) await box.check()
      await page.getByRole("button", { name: "Approve selected" }).click()
      await page.getByRole("status").filter({ hasText: "2 approved." }).waitFor()
      expect(await page.getByRole("article").count()).toBe(0)
      await page.getByLabel("State").selectOption("APPROVED")
      await page.getByRole("button", { name: "Filter" }).click()
      expect(await page.getByRole("article").count()).toBe(3)
      // Escaped: the title's markup is text. Looked for among all three, as the first test approved whichever post
      // the first approval email listed first.
      expect(await page.getByRole("heading", { name: "Gold <b>slips</b>" }).count()).toBe(1)
      expect(await page.locator(".decision").allTextContents()).toEqual(
        Array.from({ length: 3 }, () => expect.stringContaining(`Approved by user:${REVIEWER}`))
      )
      await expectAccessible(page)
      await until(
        "every post handed over",
        () => query(db.url, "SELECT state FROM posts WHERE workspace_id = $1", [desk.accountId]),
        (rows) => rows.length === 3 && rows.every((row) => row.state === "PUBLISHED"),
        120_000,
        500
      )
      expect(problems).toEqual([])
      await context.close()
    },
    240_000
  )

  it("shows a member the decisions without a single button, and reads at 375 px", async () => {
    const { context, problems } = await newContext(browser)
    const page = await context.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await signIn(page, VIEWER, "/console/approvals")
    await page.goto(`${node.url}/console/approvals?state=ANY`)
    expect(await page.getByRole("article").count()).toBe(3)
    for (const name of ["Approve", "Reject", "Approve selected"]) {
      expect(await page.getByRole("button", { name, exact: true }).count()).toBe(0)
    }
    expect(await page.getByRole("checkbox").count()).toBe(0)
    expect(await scrollWidth(page))
      .toBeLessThanOrEqual(375)
    await expectAccessible(page)
    expect(problems).toEqual([])
    // Refused on the server too, not only hidden (the browser logs the 403).
    const id =
      (await query(db.url, "SELECT id FROM approvals WHERE workspace_id = $1 LIMIT 1", [desk.accountId]))[0]!.id
    const refused = await page.evaluate(async (target) => {
      const answer = await fetch(target, { method: "POST", body: new URLSearchParams({ state: "REJECTED" }) })
      return answer.status
    }, `/console/approvals/${id}`)
    expect(refused).toBe(403)
    await context.close()
  }, 120_000)
})
