import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { expectAccessible, newContext, screenshot, scrollWidth, signInWithBrowser } from "../support/Browser.js"
import { admin } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"

let accountId: string
const OWNER = "owner@studio.test"

const { browser, db, node, sink } = useNode({
  label: "console_exports_browser",
  env: { ALLOW_PRIVATE_URLS: "true" },
  smtp: true,
  browser: true
})

beforeAll(async () => {
  const a = admin(node)
  accountId = (await a.workspace("Studio", OWNER)).accountId
  await a.member(accountId, "ana@studio.test", "operations")
  await a.put(`/admin/workspaces/${accountId}/webhook`, { url: "http://127.0.0.1:9/clipwright" })
  await a.put(`/admin/workspaces/${accountId}/limits`, { extraCeiling: 50 })
}, 120_000)

/** Signs the owner in through the page, as a person does: the form, the emailed link, Continue. */
const signIn = (page: Page, start: string) => signInWithBrowser(page, node, sink, OWNER, start)

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
    await screenshot(page, "export.png")

    await page.goto(`${node.url}/console/exports`)
    await expect.poll(() => page.getByRole("link", { name: "Market move compact 1.0.1" }).count()).toBe(1)
    await expectAccessible(page)
    await screenshot(page, "exports.png")

    await page.setViewportSize({ width: 375, height: 800 })
    for (const at of ["/console/exports", `/console/exports/${jobId}`]) {
      await page.goto(`${node.url}${at}`)
      expect(await scrollWidth(page), at).toBeLessThanOrEqual(375)
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
    await screenshot(page, "workspace.png")
    await page.setViewportSize({ width: 375, height: 800 })
    await page.reload()
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375)
    await expectAccessible(page)
    expect(problems).toEqual([])
    await context.close()
  }, 60_000)
})
