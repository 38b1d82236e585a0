import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { Browser, Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { type Desk, openDesk, until } from "../delivery/HandOverDesk.js"
import { expectAccessible, launchBrowser, newContext } from "../support/Browser.js"
import { query } from "../support/Database.js"
import { type Receiver, startReceiver } from "../support/Receiver.js"
import { useNode } from "../support/Rig.js"
import { type SmtpSink, startSmtpSink } from "../support/SmtpSink.js"

let sink: SmtpSink
let receiver: Receiver
let browser: Browser
let desk: Desk
const OPERATOR = "ops@pipeline.test"
const SIGN_IN_LINK = /https?:\/\/[^\s/]+\/console\/sign-in\/[A-Za-z0-9_-]+/
// The docs' pictures are written only when asked (UPDATE_SCREENSHOTS=true), so a test run leaves the checkout as it was.
const SHOTS = process.env["UPDATE_SCREENSHOTS"] === "true"
  ? path.resolve(import.meta.dirname, "../../docs/console")
  : fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-shots-"))
const RENDERING_STAGE = ["accepted", "awaiting rendering", "rendering", "downloading", "scheduled", "publishing"]
let showInFlight = () => {}
const shownInFlight = new Promise<void>((resolve) => (showInFlight = resolve))

beforeAll(async () => {
  sink = await startSmtpSink()
  // The first post.publish waits for the page to have shown the job in flight: on a quiet machine a render and its
  // hand-over can end between two polls, and the row would never be there to see.
  receiver = await startReceiver(async (call) => {
    if (call.json?.type === "post.publish") await shownInFlight
    return { status: 200 }
  })
  return async () => {
    await browser?.close()
    await receiver.stop()
    await sink.stop()
  }
})

const { db, node } = useNode({
  label: "console_pipeline_browser",
  env: () => ({ SMTP_URL: sink.url, ALLOW_PRIVATE_URLS: "true" })
})

beforeAll(async () => {
  desk = await openDesk(node, {
    name: "Pipeline desk",
    webhookUrl: receiver.url,
    members: [{ email: OPERATOR, role: "operations" }]
  })
  await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: false })
  browser = await launchBrowser()
}, 120_000)

/** Signs the operator in through the page, as a person does: the form, the emailed link, Continue. */
const signIn = async (page: Page, start: string) => {
  await page.goto(`${node.url}${start}`)
  const before = sink.messages.length
  await page.getByLabel("Email").fill(OPERATOR)
  await page.getByRole("button", { name: "Send sign-in link" }).click()
  const mail = await until(
    "the sign-in email",
    async () => sink.messages.slice(before).find((m) => m.envelope.to.includes(OPERATOR)),
    (found) => found !== undefined,
    30_000
  )
  await page.goto(`${node.url}${new URL(SIGN_IN_LINK.exec(mail!.text ?? "")![0]).pathname}`)
  await page.getByRole("button", { name: "Continue" }).click()
  await page.waitForURL((url) => url.pathname === start)
}

const scrollWidth = (page: Page) =>
  page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)

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
      fs.mkdirSync(SHOTS, { recursive: true })
      await page.screenshot({ path: path.join(SHOTS, "pipeline.png"), fullPage: true })
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
      await page.screenshot({ path: path.join(SHOTS, "job.png"), fullPage: true })

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
