import { describe, expect, it } from "vitest"
import { pastedPage } from "./PastedPage.js"

/**
 * docs/getting-started.md, pasted block by block into one shell against a fresh node on the embedded database (the
 * guide's own `npm start`), with the reference receiver it starts: a step that stops working fails here.
 */
const page = pastedPage("docs/getting-started.md")
const { blocks } = page

describe("docs/getting-started.md", () => {
  it("has the guide's steps as shell blocks", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10)
  })

  page.itRunsEachBlock()

  it("drew, approved and handed over the event's post, and fired the post list's", () => {
    const all = page.printed()
    expect(all).toContain("AWAITING_APPROVAL")
    expect(all).toMatch(/post\.publish \S+ channel=Shorts platform=youtube title="Gold climbs to a record"/)
    expect(all).toContain(`"state":"DELIVERED"`)
    expect(all).toMatch(/"state":"FIRED".*"published":1/)
    expect(all).toMatch(/post\.publish \S+ channel=Reels platform=instagram/)
    expect(page.shell().variable("KEY")).toMatch(/^cw_/)
    expect(page.shell().variable("SECRET")).toMatch(/^whsec_/)
  })

  it("stopped the receiver with its last step", async () => {
    await new Promise((r) => setTimeout(r, 1000))
    const answered = await fetch(`http://127.0.0.1:${page.shell().receiverPort}/`).then(() => true, () => false)
    expect(answered).toBe(false)
  })
})
