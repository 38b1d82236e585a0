import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BlockResult, failure, shellBlocks, snippetShell } from "./Snippets.js"

/**
 * docs/getting-started.md, pasted block by block into one shell against a fresh node on the embedded database (the
 * guide's own `npm start`), with the reference receiver it starts: a step that stops working fails here.
 */
const blocks = shellBlocks("docs/getting-started.md")
let shell: Awaited<ReturnType<typeof snippetShell>>
const results: Array<BlockResult> = []

beforeAll(async () => {
  shell = await snippetShell()
})
afterAll(async () => {
  await shell.stop()
})

describe("docs/getting-started.md", () => {
  it("has the guide's steps as shell blocks", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10)
  })

  it.each(blocks.map((block, i) => ({ ...block, i })))("the block at line $line works", async (block) => {
    const result = await shell.run(block)
    results[block.i] = result
    expect(failure(block, result) ?? "", shell.nodeLog().slice(-3000)).toBe("")
  }, 240_000)

  it("drew, approved and handed over the event's post, and fired the post list's", () => {
    const all = results.map((r) => r.stdout).join("\n")
    expect(all).toContain("AWAITING_APPROVAL")
    expect(all).toMatch(/post\.publish \S+ channel=Shorts platform=youtube title="Gold climbs to a record"/)
    expect(all).toContain(`"state":"DELIVERED"`)
    expect(all).toMatch(/"state":"FIRED".*"published":1/)
    expect(all).toMatch(/post\.publish \S+ channel=Reels platform=instagram/)
    expect(shell.variable("KEY")).toMatch(/^cw_/)
    expect(shell.variable("SECRET")).toMatch(/^whsec_/)
  })

  it("stopped the receiver with its last step", async () => {
    await new Promise((r) => setTimeout(r, 1000))
    const answered = await fetch(`http://127.0.0.1:${shell.receiverPort}/`).then(() => true, () => false)
    expect(answered).toBe(false)
  })
})
