import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectAccessible, newContext } from "../support/Browser.js"
import { admin } from "../support/Client.js"
import { signInLink } from "../support/People.js"
import { useNode } from "../support/Rig.js"

let otherSite: http.Server
let otherSiteUrl: string
const OWNER = "owner@browser.test"

/** The emailed link points at PUBLIC_BASE_URL (localhost); the browser reaches the node at its loopback address. */
const onNode = (url: string) => `${node.url}${new URL(url).pathname}`

afterAll(async () => {
  if (otherSite !== undefined) await new Promise((resolve) => otherSite.close(resolve))
})

const { browser, node, sink } = useNode({ label: "console_browser", smtp: true, browser: true })

beforeAll(async () => {
  await admin(node).workspace("Browser House", OWNER)
  // Another site: a page whose form posts to the console, as a forged request would.
  otherSite = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" })
    response.end(
      `<!doctype html><title>Other site</title><form method="post" action="${node.url}/console/sign-out">` +
        `<button type="submit">Win a prize</button></form>`
    )
  })
  await new Promise<void>((resolve) => otherSite.listen(0, "localhost", resolve))
  otherSiteUrl = `http://localhost:${(otherSite.address() as AddressInfo).port}/`
}, 120_000)

describe("signing in with a browser", () => {
  it("asks for a link, continues from the email, works signed in, signs out, and a used link says so", async () => {
    const { context, problems } = await newContext(browser)
    const page = await context.newPage()
    await page.goto(`${node.url}/console`)
    expect(new URL(page.url()).pathname).toBe("/console/sign-in")
    await expectAccessible(page)

    const before = sink.messages.length
    await page.getByLabel("Email").fill(OWNER)
    await page.getByRole("button", { name: "Send sign-in link" }).click()
    await page.getByRole("heading", { name: "Check your email" }).waitFor()
    await expectAccessible(page)

    const link = await signInLink(sink, OWNER, before)
    await page.goto(onNode(link.url))
    expect(await context.cookies()).toEqual([])
    await expectAccessible(page)
    await page.getByRole("button", { name: "Continue" }).click()
    await page.getByRole("heading", { name: "Browser House" }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/console")
    await expectAccessible(page)
    // Our own script ran under the CSP: htmx is there, and nothing was refused.
    expect(await page.evaluate(() => typeof (globalThis as any).htmx)).toBe("object")
    const [cookie] = await context.cookies()
    expect(cookie).toMatchObject({ name: "clipwright_session", httpOnly: true, sameSite: "Lax", path: "/" })

    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByText("You are signed out.").waitFor()
    await page.goto(`${node.url}/console`)
    expect(new URL(page.url()).pathname).toBe("/console/sign-in")

    await page.goto(onNode(link.url))
    await page.getByRole("heading", { name: "This sign-in link has expired or was already used" }).waitFor()
    await expectAccessible(page)
    expect(problems.filter((p) => !p.includes("410"))).toEqual([])
    await context.close()
  })

  it("refuses a form another site posts to the console, and the session lives on", async () => {
    const { context } = await newContext(browser)
    const page = await context.newPage()
    const before = sink.messages.length
    await page.goto(`${node.url}/console/sign-in`)
    await page.getByLabel("Email").fill(OWNER)
    await page.getByRole("button", { name: "Send sign-in link" }).click()
    await page.getByRole("heading", { name: "Check your email" }).waitFor()
    await page.goto(onNode((await signInLink(sink, OWNER, before)).url))
    await page.getByRole("button", { name: "Continue" }).click()
    await page.getByRole("heading", { name: "Browser House" }).waitFor()

    await page.goto(otherSiteUrl)
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/console/sign-out")),
      page.getByRole("button", { name: "Win a prize" }).click()
    ])
    expect(answer.status()).toBe(403)
    await page.goto(`${node.url}/console`)
    await page.getByRole("heading", { name: "Browser House" }).waitFor()
    await context.close()
  })
})
