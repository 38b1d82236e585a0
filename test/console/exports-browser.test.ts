import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectAccessible, launchBrowser, newContext } from "../support/Browser.js"
import { admin } from "../support/Client.js"
import { createTestDatabase, query, type TestDatabase } from "../support/Database.js"
import { startNode, type TestNode } from "../support/Node.js"
import { signInLink } from "../support/People.js"
import { type SmtpSink, startSmtpSink } from "../support/SmtpSink.js"

let db: TestDatabase
let node: TestNode
let sink: SmtpSink
let browser: Browser
let accountId: string
const OWNER = "owner@studio.test"
// The docs' pictures are written only when asked (UPDATE_SCREENSHOTS=true), so a test run leaves the checkout as it was.
const SHOTS = process.env["UPDATE_SCREENSHOTS"] === "true"
  ? path.resolve(import.meta.dirname, "../../docs/console")
  : fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-shots-"))

beforeAll(async () => {
  // Chromium starts while the node does.
  const launching = launchBrowser()
  db = await createTestDatabase("console_exports_browser")
  sink = await startSmtpSink()
  node = await startNode({ databaseUrl: db.url, env: { SMTP_URL: sink.url, ALLOW_PRIVATE_URLS: "true" } })
  const a = admin(node)
  accountId = (await a.workspace("Studio", OWNER)).accountId
  await a.post(`/admin/workspaces/${accountId}/members`, { email: "ana@studio.test", role: "operations" })
  await a.put(`/admin/workspaces/${accountId}/webhook`, { url: "http://127.0.0.1:9/clipwright" })
  await a.put(`/admin/workspaces/${accountId}/limits`, { extraCeiling: 50 })
  browser = await launching
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await node?.stop()
  await sink?.stop()
  await db?.drop()
})

/** Signs the owner in through the page, as a person does: the form, the emailed link, Continue. */
const signIn = async (page: Page, start: string) => {
  await page.goto(`${node.url}${start}`)
  const before = sink.messages.length
  await page.getByLabel("Email").fill(OWNER)
  await page.getByRole("button", { name: "Send sign-in link" }).click()
  const { token } = await signInLink(sink, OWNER, before, 30_000)
  await page.goto(`${node.url}/console/sign-in/${token}`)
  await page.getByRole("button", { name: "Continue" }).click()
  await page.waitForURL((url) => url.pathname === start)
}

const fitsWidth = (page: Page) =>
  page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)

describe("exports and the workspace in Chromium", () => {
  it("starts an export from a template's example, watches it finish in place, plays it and downloads it", async () => {
    const { context, problems } = await newContext(browser)
    const page = await context.newPage()
    await page.setViewportSize({ width: 1280, height: 900 })
    await signIn(page, "/console/exports")

    await page.getByLabel("Template", { exact: true }).selectOption({ label: "Market move · compact" })
    await page.getByRole("button", { name: "Use template" }).click()
    await page.waitForURL((url) => url.searchParams.get("template")?.endsWith("/compact") === true)
    const prefilled = JSON.parse(await page.getByLabel("Data (JSON)").inputValue())
    expect(prefilled.clipData.headline).toBe("European stocks close higher as energy rallies")
    // The person changes the example before starting.
    prefilled.clipData.headline = "Markets close higher"
    await page.getByLabel("Data (JSON)").fill(JSON.stringify(prefilled, null, 2))
    await page.getByLabel("Shape").selectOption("1x1")
    await page.getByLabel("Title (optional)").fill("Markets at the close")
    await page.getByRole("button", { name: "Start export" }).click()
    await page.waitForURL((url) => /^\/console\/exports\/\w+$/.test(url.pathname))
    const jobId = page.url().split("/").pop()!

    // The page was loaded once: htmx replaces the progress block until the video is there.
    const video = page.locator("#export-progress video")
    await video.waitFor({ timeout: 120_000 })
    await page.waitForFunction(
      () => {
        const v = (globalThis as any).document.querySelector("#export-progress video")
        return v !== null && v.readyState >= 1 && v.duration > 0
      },
      undefined,
      { timeout: 30_000 }
    )
    const duration = await video.evaluate((v: any) => v.duration as number)
    expect(duration).toBeGreaterThan(5)
    await video.evaluate((v: any) => {
      v.muted = true
      return v.play()
    })
    await page.waitForFunction(() => (globalThis as any).document.querySelector("video").currentTime > 0.2)

    const href = await page.getByRole("link", { name: "Download" }).getAttribute("href")
    expect(href).toMatch(new RegExp(`^/v1/export-files/${jobId}\\?as=video&key=`))
    const download = await page.evaluate(async (target) => {
      const answer = await fetch(target)
      const bytes = new Uint8Array(await answer.arrayBuffer())
      return {
        status: answer.status,
        type: answer.headers.get("content-type"),
        size: bytes.length,
        box: [...bytes.slice(4, 8)]
      }
    }, href!)
    expect(download).toMatchObject({ status: 200, type: "video/mp4" })
    expect(String.fromCharCode(...download.box)).toBe("ftyp")
    expect(download.size).toBeGreaterThan(1000)
    const rows = await query(db.url, "SELECT created_by FROM exports WHERE id = $1", [jobId])
    expect(rows[0]!.created_by).toBe(`user:${OWNER}`)
    await expectAccessible(page)
    fs.mkdirSync(SHOTS, { recursive: true })
    await page.screenshot({ path: path.join(SHOTS, "export.png"), fullPage: true })

    await page.goto(`${node.url}/console/exports`)
    await expect.poll(() => page.getByRole("link", { name: "Market move compact 1.0.1" }).count()).toBe(1)
    await expectAccessible(page)
    await page.screenshot({ path: path.join(SHOTS, "exports.png"), fullPage: true })

    await page.setViewportSize({ width: 375, height: 800 })
    for (const at of ["/console/exports", `/console/exports/${jobId}`]) {
      await page.goto(`${node.url}${at}`)
      expect(await fitsWidth(page), at).toBeLessThanOrEqual(375)
      await expectAccessible(page)
    }
    expect(problems).toEqual([])
    await context.close()
  }, 180_000)

  it("shows the workspace page and lets the owner buy extra renders, at desktop and 375 px", async () => {
    const { context, problems } = await newContext(browser)
    const page = await context.newPage()
    await page.setViewportSize({ width: 1280, height: 900 })
    await signIn(page, "/console/workspace")
    await page.getByLabel("Renders to buy").fill("20")
    await page.getByRole("button", { name: "Buy", exact: true }).click()
    await page.getByRole("status").filter({ hasText: "20 extra renders bought for this month." }).waitFor()
    expect(await page.getByRole("row", { name: /ana@studio\.test Operations/ }).count()).toBe(1)
    await expect.poll(() => page.locator("dd").allTextContents()).toContain("20")
    await expectAccessible(page)
    await page.screenshot({ path: path.join(SHOTS, "workspace.png"), fullPage: true })
    await page.setViewportSize({ width: 375, height: 800 })
    await page.reload()
    expect(await fitsWidth(page)).toBeLessThanOrEqual(375)
    await expectAccessible(page)
    expect(problems).toEqual([])
    await context.close()
  }, 60_000)
})
