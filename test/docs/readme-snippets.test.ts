import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BlockResult, failure, root, shellBlocks, snippetShell } from "./Snippets.js"

/**
 * The README's shell blocks, pasted in order into one shell as a newcomer does: `npm start` starts a fresh node on
 * the embedded database, and the next block makes a workspace and a key with the CLI and calls the API with it.
 */
const blocks = shellBlocks("README.md")
let shell: Awaited<ReturnType<typeof snippetShell>>
const results: Array<BlockResult> = []

beforeAll(async () => {
  shell = await snippetShell()
})
afterAll(async () => {
  await shell.stop()
})

describe("README.md", () => {
  it("starts with npm ci and npm start", () => {
    expect(blocks[0]?.code.split("\n")).toEqual(["npm ci", "npm start"])
  })

  it.each(blocks.map((block, i) => ({ ...block, i })))("the block at line $line works", async (block) => {
    const result = await shell.run(block)
    results[block.i] = result
    expect(failure(block, result) ?? "", shell.nodeLog().slice(-3000)).toBe("")
  }, 240_000)

  it("answered as the README shows", () => {
    const all = results.map((r) => r.stdout).join("\n")
    expect(all).toContain(`{"status":"ok"}`)
    expect(all).toMatch(/"accountName":"Acme","scopes":\["\*"\],"kind":"apikey"/)
    expect(shell.variable("KEY")).toMatch(/^cw_/)
  })

  it("is at most 200 lines and cites no document outside the repository", () => {
    const text = fs.readFileSync(path.join(root, "README.md"), "utf8")
    expect(text.split("\n").length).toBeLessThanOrEqual(200)
    expect(text).not.toMatch(/\b(SPEC|CONTRACT|DESIGN)(\.md)?\b/)
  })
})
