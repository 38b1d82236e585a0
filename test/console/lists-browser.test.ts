import type { BrowserContext, Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { content, listeningChannel, newList } from "../queues/QueueDesk.js"
import { expectAccessible, newContext, screenshot, scrollWidth, signInWithBrowser } from "../support/Browser.js"
import { admin, client } from "../support/Client.js"
import { useNode } from "../support/Rig.js"

let listId = ""
/** The signed-in browser's cookies (session and zone), shared by the second test instead of a second sign-in. */
let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined
const OWNER = "owner@lists.test"
const ZONE = "America/New_York"

const { browser, node, receiver, sink } = useNode({
  label: "console_lists_browser",
  env: { ALLOW_PRIVATE_URLS: "true" },
  smtp: true,
  receiver: true,
  browser: true
})

beforeAll(async () => {
  const a = admin(node)
  const ws = await a.workspace("Lists desk", OWNER)
  expect((await a.put(`/admin/workspaces/${ws.accountId}/webhook`, { url: receiver.url })).status).toBe(200)
  const api = client(node, (await a.key(ws.accountId, ["*"])).apiKey)
  expect((await api.post("/v1/brands", { name: "House" })).status).toBe(201)
  listId = (await newList(api, "Morning <markets>")).id
  await listeningChannel(api, listId, { name: "Reels", deliverByWebhook: true, deliverByEmail: false })
}, 120_000)

/** A context in New York's zone whose pages record CSP violations and script errors in `problems`. */
const newZonedContext = () =>
  newContext(browser, { timezoneId: ZONE, ...(signedIn === undefined ? {} : { storageState: signedIn }) })

const signIn = (page: Page, start: string) => signInWithBrowser(page, node, sink, OWNER, start)

describe("scheduling from the console", () => {
  it("takes the browser's zone, schedules a post seconds ahead, sees it fire and shows it published", async () => {
    const { context, problems } = await newZonedContext()
    const page = await context.newPage()
    await page.setViewportSize({ width: 1280, height: 900 })

    // zone.js tells the server the browser's zone and the page comes again in it.
    await signIn(page, "/console/calendar")
    await page.getByText(`Times are in ${ZONE}.`).waitFor()
    signedIn = await context.storageState()

    await page.goto(`${node.url}/console/lists/${listId}`)
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Morning <markets>")
    await page.getByRole("button", { name: "Schedule" }).click()
    await page.getByRole("alert").filter({ hasText: "Nothing was scheduled" }).waitFor()
    expect(await page.locator("#title-error").textContent()).toContain("Enter a title.")
    expect(await page.getByLabel("Title").getAttribute("aria-invalid")).toBe("true")
    await expectAccessible(page)

    await page.getByLabel("Title").fill("Gold from the console")
    await page.getByLabel("Variant").fill("compact")
    await page.getByLabel("Content (JSON)").fill(JSON.stringify(content, null, 2))
    // Six seconds ahead, as the browser's (New York's) clocks read it.
    const due = await page.evaluate(() => {
      const at = new Date(Date.now() + 6000)
      const two = (n: number) => String(n).padStart(2, "0")
      return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${
        two(at.getMinutes())
      }:${two(at.getSeconds())}`
    })
    await page.getByLabel("Time").fill(due)
    await page.getByRole("button", { name: "Schedule" }).click()
    await page.getByRole("status").filter({ hasText: "Scheduled \"Gold from the console\"." }).waitFor()
    expect(await page.getByRole("cell", { name: "Gold from the console", exact: true }).count()).toBe(1)
    await expectAccessible(page)
    await screenshot(page, "lists.png")

    const [call] = await receiver.waitFor(1, 150_000)
    expect(call!.json.type).toBe("post.publish")
    expect(call!.json.data.posts[0]).toMatchObject({ origin: "manual", postTitle: "Gold from the console" })

    const entry = page.locator("li.entry.published")
    await expect.poll(async () => {
      await page.goto(`${node.url}/console/calendar?view=week`)
      return entry.count()
    }, { timeout: 30_000 }).toBe(1)
    expect(await entry.textContent()).toContain("Reels · Published (published)")
    expect(await entry.getByRole("link").getAttribute("href")).toMatch(/^\/console\/jobs\/\w+$/)
    await expectAccessible(page)
    await screenshot(page, "calendar-week.png")

    await page.goto(`${node.url}/console/calendar`)
    expect(await page.locator("li.day[aria-current=date] li.entry.published").count()).toBe(1)
    await expectAccessible(page)
    await screenshot(page, "calendar-month.png")

    await page.goto(`${node.url}/console/events`)
    await page.getByRole("link", { name: "Gold from the console" }).click()
    await page.getByText("Accepted: it made 1 job.").waitFor()
    await expectAccessible(page)
    await page.goto(`${node.url}/console/events`)
    await expectAccessible(page)
    await screenshot(page, "events.png")
    // The browser logs the refused first try (400), which is the page's answer, not a fault.
    expect(problems.filter((p) => !p.includes("status of 400"))).toEqual([])
    await context.close()
  }, 240_000)

  it("shows the month as a list of days at 375 px", async () => {
    const { context, problems } = await newZonedContext()
    const page = await context.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto(`${node.url}/console/calendar`)
    await page.getByText(`Times are in ${ZONE}.`).waitFor()
    expect(await scrollWidth(page))
      .toBeLessThanOrEqual(375)
    const columns = await page.locator("ol.days").evaluate((el) =>
      (globalThis as any).getComputedStyle(el).gridTemplateColumns as string
    )
    expect(columns.split(" ")).toHaveLength(1)
    expect(await page.locator(".weekdays").isVisible()).toBe(false)
    await expectAccessible(page)
    for (const where of ["/console/lists", `/console/lists/${listId}`, "/console/events"]) {
      await page.goto(`${node.url}${where}`)
      expect(await scrollWidth(page), where)
        .toBeLessThanOrEqual(375)
      await expectAccessible(page)
    }
    expect(problems).toEqual([])
    await context.close()
  }, 120_000)
})
