import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { type Desk, openDesk, until } from "../delivery/HandOverDesk.js"
import { expectAccessible, newContext, screenshot, scrollWidth, signInWithBrowser } from "../support/Browser.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"

let desk: Desk
const OPERATOR = "ops@pipeline.test"
const RENDERING_STAGE = ["accepted", "awaiting rendering", "rendering", "downloading", "scheduled", "publishing"]
let showInFlight = () => {}
const shownInFlight = new Promise<void>((resolve) => (showInFlight = resolve))

const { browser, db, node, receiver, sink } = useNode({
  label: "console_pipeline_browser",
  env: { ALLOW_PRIVATE_URLS: "true" },
  smtp: true,
  // The first post.publish waits for the page to have shown the job in flight: on a quiet machine a render and its
  // hand-over can end between two polls, and the row would never be there to see.
  receiver: async (call) => {
    if (call.json?.type === "post.publish") await shownInFlight
    return { status: 200 }
  },
  browser: true
})

beforeAll(async () => {
  desk = await openDesk(node, {
    name: "Pipeline desk",
    webhookUrl: receiver.url,
    members: [{ email: OPERATOR, role: "operations" }]
  })
  await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: false })
}, 120_000)

/** Signs the operator in through the page, as a person does: the form, the emailed link, Continue. */
const signIn = (page: Page, start: string) => signInWithBrowser(page, node, sink, OPERATOR, start)

describe("the live pipeline", () => {
  it(
    "shows a job rendering and then published without a reload, tells its story and removes its post by Delete",
    async () => {
      const { context, problems } = await newContext(browser)
      const page = await context.newPage()
      await page.setViewportSize({ width: 1280, height: 900 })
      await signIn(page, "/console/pipeline")
      await page.getByText("Nothing is rendering, waiting or being handed over.").waitFor()
      await expectAccessible(page)
      // A mark in the window: a reload would lose it. And every stage the job's row shows is noted as it is swapped in.
      await page.evaluate(() => {
        const w = globalThis as any
        w.stayed = true
        w.seen = []
        w.document.body.addEventListener("htmx:afterSwap", () => {
          for (const badge of w.document.querySelectorAll("tr[data-job] .badge")) w.seen.push(badge.textContent)
        })
      })

      const sent = await desk.send()
      const jobId = sent.matched[0]!.postGroupId
      const row = page.locator(`tr[data-job="${jobId}"]`)
      await row.waitFor({ timeout: 60_000 })
      expect(await row.textContent()).toContain("Gold at a record")
      showInFlight()
      await screenshot(page, "pipeline.png")
      await expectAccessible(page)
      await page.setViewportSize({ width: 375, height: 800 })
      expect(await scrollWidth(page)).toBeLessThanOrEqual(375)
      await expectAccessible(page)
      await page.setViewportSize({ width: 1280, height: 900 })

      // Rendered, handed over, accepted by the receiver: it leaves the jobs in flight and is counted as published.
      await row.waitFor({ state: "detached", timeout: 150_000 })
      await page.locator("ul.stages li.stage-published .n", { hasText: "1" }).waitFor({ timeout: 30_000 })
      const state = await page.evaluate(() => ({ stayed: (globalThis as any).stayed, seen: (globalThis as any).seen }))
      expect(state.stayed).toBe(true)
      expect(state.seen.some((s: string) => RENDERING_STAGE.includes(s))).toBe(true)
      expect(receiver.calls.map((c) => c.json.type)).toEqual(["post.publish"])

      await page.goto(`${node.url}/console/jobs/${jobId}`)
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Gold at a record")
      const handOver = page.getByRole("region", { name: "Hand-over" })
      expect(await handOver.textContent()).toMatch(
        /post\.publish by webhook.*delivered.*Attempt 1: .*status 200, accepted/s
      )
      expect(await page.getByRole("region", { name: "Post" }).textContent()).toContain("Published")
      expect(await page.getByRole("button", { name: "Cancel" }).count()).toBe(0)
      expect(await page.getByRole("button", { name: "Repost" }).count()).toBe(1)
      expect(await page.getByRole("button", { name: "Update" }).count()).toBe(1)
      await expectAccessible(page)
      await screenshot(page, "job.png")

      await page.getByRole("button", { name: "Delete" }).click()
      await page.waitForURL((url) => url.searchParams.get("done") === "deleted")
      expect(await page.getByRole("status").textContent()).toBe(
        "Removal queued: a signed post.delete delivery asks the receiver to remove the post."
      )
      expect(await handOver.textContent()).toContain("post.delete by webhook")
      await receiver.waitFor(2, 60_000)
      expect(receiver.calls[1]!.json.type).toBe("post.delete")
      await until(
        "the job deleted",
        () => query(db.url, "SELECT status FROM jobs WHERE id = $1", [jobId]),
        (rows) => rows[0]?.status === "DELETED",
        60_000
      )
      await page.reload()
      expect(await page.locator("dl.facts dd").first().textContent()).toBe("deleted")
      expect(await page.getByRole("button", { name: "Delete" }).count()).toBe(0)

      // At phone width the story stays in the screen's width.
      await page.setViewportSize({ width: 375, height: 800 })
      expect(await scrollWidth(page)).toBeLessThanOrEqual(375)
      await expectAccessible(page)
      expect(problems).toEqual([])
      await context.close()
    },
    300_000
  )
})
