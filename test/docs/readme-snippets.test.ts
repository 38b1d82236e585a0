import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { pastedPage } from "./PastedPage.js"
import { root } from "./Snippets.js"

/**
 * The README's shell blocks, pasted in order into one shell as a newcomer does: `npm start` starts a fresh node on
 * the embedded database, and the next block makes a workspace and a key with the CLI and calls the API with it.
 */
const page = pastedPage("README.md")
const { blocks } = page

describe("README.md", () => {
  it("starts with npm ci and npm start", () => {
    expect(blocks[0]?.code.split("\n")).toEqual(["npm ci", "npm start"])
  })

  page.itRunsEachBlock()

  it("answered as the README shows", () => {
    const all = page.printed()
    expect(all).toContain(`{"status":"ok"}`)
    expect(all).toMatch(/"accountName":"Acme","scopes":\["\*"\],"kind":"apikey"/)
    expect(page.shell().variable("KEY")).toMatch(/^cw_/)
  })

  it("is at most 200 lines and cites no document outside the repository", () => {
    const text = fs.readFileSync(path.join(root, "README.md"), "utf8")
    expect(text.split("\n").length).toBeLessThanOrEqual(200)
    expect(text).not.toMatch(/\b(SPEC|CONTRACT|DESIGN)(\.md)?\b/)
  })
})
