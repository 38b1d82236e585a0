import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { type Desk, openDesk, until } from "../delivery/HandOverDesk.js"
import { expectAccessible, newContext, screenshot, scrollWidth, signInWithBrowser } from "../support/Browser.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"

let desk: Desk
let deliveryId: string
const OPERATOR = "ops@example.test"
const VIEWER = "viewer@example.test"

const { browser, db, node, receiver, sink } = useNode({
  label: "console_deliveries_browser",
  // Two attempts a second apart, then the delivery is dead.
  env: { ALLOW_PRIVATE_URLS: "true", DELIVERY_RETRY_SCHEDULE: "1s" },
  smtp: true,
  // Down for maintenance until the test says otherwise; what it answers is markup, shown on the page as text.
  receiver: () => ({ status: 500, body: { error: "<b>down</b> for maintenance" } }),
  browser: true
})

beforeAll(async () => {
  desk = await openDesk(node, {
    name: "Evening desk",
    webhookUrl: receiver.url,
    members: [{ email: OPERATOR, role: "operations" }, { email: VIEWER, role: "member" }]
  })
  await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: false })
  await desk.send()
  const dead = await until(
    "the delivery dead",
    () => query(db.url, "SELECT id FROM deliveries WHERE workspace_id = $1 AND state = 'DEAD'", [desk.accountId]),
    (rows) => rows.length === 1,
    120_000,
    300
  )
  deliveryId = dead[0]!.id as string
}, 180_000)

const signIn = (page: Page, email: string, start: string) => signInWithBrowser(page, node, sink, email, start)

describe("the deliveries console", () => {
  it(
    "shows the dead delivery on /console and in the log; Redeliver says it failed while the receiver is down, and delivers it once the receiver is back",
    async () => {
      const { context, problems } = await newContext(browser)
      const page = await context.newPage()
      await page.setViewportSize({ width: 1280, height: 900 })
      await signIn(page, OPERATOR, "/console")

      const dead = page.getByRole("region", { name: /Dead deliveries/ })
      expect(await dead.getByRole("heading").textContent()).toContain("1")
      expect(await dead.getByRole("listitem").first().textContent()).toContain("Dead")
      await expectAccessible(page)

      await page.getByRole("link", { name: "Deliveries", exact: true }).click()
      await page.waitForURL((url) => url.pathname === "/console/deliveries")
      const row = page.getByRole("row").filter({ hasText: "post.publish by webhook" })
      expect(await row.count()).toBe(1)
      expect(await row.textContent()).toMatch(/Dead.*Shorts.*2.*500/)
      await page.getByLabel("State").selectOption("DEAD")
      await page.getByRole("button", { name: "Filter" }).click()
      await page.waitForURL((url) => url.searchParams.get("state") === "DEAD")
      expect(await page.getByRole("row").filter({ hasText: "post.publish by webhook" }).count()).toBe(1)
      await expectAccessible(page)
      await screenshot(page, "deliveries.png")

      await page.getByRole("link", { name: /post\.publish by webhook/ }).click()
      await page.waitForURL((url) => url.pathname === `/console/deliveries/${deliveryId}`)
      expect(await page.getByRole("heading", { level: 3 }).allTextContents()).toEqual(
        expect.arrayContaining(["Attempt 1", "Attempt 2"])
      )
      // The receiver's markup is text on the page.
      expect(await page.locator("pre").first().textContent()).toContain("<b>down</b> for maintenance")
      expect(await page.locator("b").count()).toBe(0)
      expect(await page.getByText(`webhook-id: ${deliveryId}`).count()).toBeGreaterThan(0)
      await expectAccessible(page)
      await screenshot(page, "delivery.png")

      // Still down: the redelivery fails, the page says so and the delivery stays dead.
      await page.getByRole("button", { name: "Redeliver" }).click()
      await page.waitForURL((url) => url.searchParams.get("outcome") === "redelivered")
      expect(await page.getByRole("status").textContent()).toBe(
        "Redelivered, but it failed again (status 500): The receiver answered 500."
      )
      expect(await page.locator(".card.delivery .badge").textContent()).toContain("Dead")
      expect(await page.getByRole("heading", { name: "Attempt 3 (redelivery)" }).count()).toBe(1)

      receiver.answerWith(() => ({ status: 200, body: { ok: true } }))
      await page.getByRole("button", { name: "Redeliver" }).click()
      await page.getByRole("heading", { name: "Attempt 4 (redelivery)" }).waitFor()
      expect(await page.getByRole("status").textContent()).toBe("Redelivered: the receiver accepted it (status 200).")
      expect(await page.locator(".card.delivery .badge").textContent()).toBe("Delivered")
      expect(await page.getByRole("button", { name: "Redeliver" }).count()).toBe(0)
      await expectAccessible(page)

      // Each redelivery sent it again byte for byte, under the same id and signature.
      expect(receiver.calls).toHaveLength(4)
      const [first, , ...again] = receiver.calls
      for (const call of again) {
        expect(call.headers["webhook-id"]).toBe(deliveryId)
        expect(call.headers["webhook-signature"]).toBe(again[0]!.headers["webhook-signature"])
        expect(call.body.equals(first!.body)).toBe(true)
      }
      await until(
        "the post published",
        () => query(db.url, "SELECT state FROM posts WHERE workspace_id = $1", [desk.accountId]),
        (rows) => rows.length === 1 && rows[0]!.state === "PUBLISHED",
        30_000
      )
      await page.goto(`${node.url}/console`)
      expect(await page.getByRole("region", { name: /Dead deliveries/ }).textContent()).toContain(
        "Every hand-over got through."
      )
      expect(problems).toEqual([])
      await context.close()
    },
    120_000
  )

  it("shows a member the log and the delivery at 375 px without Redeliver", async () => {
    await query(db.url, "UPDATE deliveries SET state = 'DEAD' WHERE id = $1", [deliveryId])
    const { context, problems } = await newContext(browser)
    const page = await context.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await signIn(page, VIEWER, "/console/deliveries")
    expect(await page.getByRole("row").filter({ hasText: "post.publish by webhook" }).count()).toBe(1)
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375)
    await expectAccessible(page)
    await page.getByRole("link", { name: /post\.publish by webhook/ }).click()
    await page.waitForURL((url) => url.pathname === `/console/deliveries/${deliveryId}`)
    expect(await page.getByRole("button", { name: "Redeliver" }).count()).toBe(0)
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375)
    await expectAccessible(page)
    expect(problems).toEqual([])
    await context.close()
  }, 60_000)
})
