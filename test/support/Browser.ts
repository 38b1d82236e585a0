import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from "playwright-core"
import { expect } from "vitest"
import type { TestNode } from "./Node.js"
import { SIGN_IN_LINK } from "./People.js"
import type { SmtpSink } from "./SmtpSink.js"
import { eventually } from "./Until.js"

/**
 * Debian's `chromium-headless-shell` (installed by `.ci/run`), or `CHROMIUM_PATH`. playwright-core downloads no
 * browser of its own.
 */
const CANDIDATES = [
  process.env["CHROMIUM_PATH"],
  "/usr/bin/chromium-headless-shell",
  "/usr/lib/chromium/chromium-headless-shell",
  "/usr/lib/chromium-headless-shell/chromium-headless-shell",
  "/usr/bin/chromium"
]

export const chromiumPath = (): string => {
  const found = CANDIDATES.find((p) => p !== undefined && p !== "" && fs.existsSync(p))
  if (found === undefined) {
    throw new Error(
      "No Chromium: apt-get install -y --no-install-recommends chromium-headless-shell, or set CHROMIUM_PATH"
    )
  }
  return found
}

/**
 * As root the sandbox cannot start; the rest keep Chromium from reaching out to Google's services, which this
 * machine's closed network refuses (a CI machine has no way out).
 */
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage"
]

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumPath(), args: FLAGS, headless: true })

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

export interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly targets: ReadonlyArray<string>
}

/**
 * Runs axe-core in the page as it stands and answers its serious and critical violations. axe is evaluated through
 * the DevTools protocol, which the page's CSP does not govern, so the page keeps its real policy.
 */
export const seriousViolations = async (page: Page): Promise<ReadonlyArray<AxeViolation>> => {
  await page.evaluate(AXE_SOURCE)
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as any).axe
    const result = await axe.run((globalThis as any).document, { resultTypes: ["violations"] })
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((n: any) => String(n.target))
    }))
  }) as ReadonlyArray<AxeViolation>
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical")
}

/** Fails with what axe found when a page has a serious or critical accessibility violation. */
export const expectAccessible = async (page: Page) => {
  const found = await seriousViolations(page)
  if (found.length > 0) {
    throw new Error(
      `axe-core on ${page.url()}:\n${
        found.map((v) => `${v.impact} ${v.id}: ${v.help} ${v.targets.join(", ")}`).join("\n")
      }`
    )
  }
}

/**
 * A fresh browser context whose pages record what the browser refused or failed: CSP violations and script errors
 * appear in `problems`, which a test expects to stay empty.
 */
export const newContext = async (browser: Browser, options: BrowserContextOptions = {}) => {
  const context: BrowserContext = await browser.newContext(options)
  const problems: Array<string> = []
  context.on("page", (page) => watch(page, problems))
  return { context, problems }
}

const watch = (page: Page, problems: Array<string>) => {
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`)
  })
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`))
}

/**
 * Signs `email` in through the page, as a person does: `start` leads to the form, then the emailed link, Continue,
 * and back at `start`. The sign-in email is the newest to `email` that carries a sign-in link (a reviewer's mailbox
 * also gets approval requests). The emailed link carries PUBLIC_BASE_URL; the browser follows it on the node's address.
 */
export const signInWithBrowser = async (
  page: Page,
  node: Pick<TestNode, "url">,
  sink: SmtpSink,
  email: string,
  start: string
) => {
  await page.goto(`${node.url}${start}`)
  expect(new URL(page.url()).pathname).toBe("/console/sign-in")
  const before = sink.messages.length
  await page.getByLabel("Email").fill(email)
  await page.getByRole("button", { name: "Send sign-in link" }).click()
  await page.getByText("Check your email").first().waitFor()
  const link = await eventually(
    "the sign-in email",
    async () =>
      sink.messages.slice(before)
        .filter((m) => m.envelope.to.includes(email))
        .map((m) => SIGN_IN_LINK.exec(m.text ?? "")?.[0])
        .findLast((found) => found !== undefined),
    30_000
  )
  await page.goto(`${node.url}${new URL(link).pathname}`)
  await page.getByRole("button", { name: "Continue" }).click()
  await page.waitForURL((url) => url.pathname === new URL(start, node.url).pathname)
}

/**
 * The docs' pictures are written only when asked (UPDATE_SCREENSHOTS=true), so a test run leaves the checkout as it
 * was; otherwise they go to a temporary folder.
 */
let shots: string | undefined
const shotsFolder = () => {
  shots ??= process.env["UPDATE_SCREENSHOTS"] === "true"
    ? path.resolve(import.meta.dirname, "../../docs/console")
    : fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-shots-"))
  fs.mkdirSync(shots, { recursive: true })
  return shots
}

/** A full-page screenshot of the page as it stands, named `name` (`docs/console/<name>` when asked). */
export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shotsFolder(), name), fullPage: true })

/** How wide the page's content is, in CSS pixels: at most the viewport's width when nothing overflows sideways. */
export const scrollWidth = (page: Page) =>
  page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)
