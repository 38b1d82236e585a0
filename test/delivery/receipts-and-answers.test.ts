import { describe, expect, it } from "vitest"
import { call } from "../support/Client.js"
import { expectError } from "../support/Routes.js"
import { handOverRig, onNode, openDesk, postInState, postOf, until } from "./HandOverDesk.js"

const rig = handOverRig("handover_receipts", { outbox: true })

/** A workspace whose one webhook-only channel gets one event; answers the desk and the call that handed it over. */
const handOverOne = async (name: string) => {
  const before = rig.receiver.calls.length
  const desk = await openDesk(rig.node, { name, webhookUrl: rig.receiver.url })
  await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: false })
  await desk.send()
  const calls = await rig.receiver.waitFor(before + 1, 90_000)
  const handed = calls[before]!
  expect(handed.json.data.accountId).toBe(desk.accountId)
  return { desk, handed, post: handed.json.data.posts[0]! as Record<string, any> }
}

describe("the receiver's answer", () => {
  it("fills the post's platformPostId and permalink from a 2xx { posts: [...] }", async () => {
    rig.receiver.answerWith((c) => ({
      status: 200,
      body: {
        posts: c.json.data.posts.map((p) => ({
          id: p.id,
          platformPostId: `yt-${p.id}`,
          permalink: `https://youtube.com/shorts/${p.id}`
        }))
      }
    }))
    const { desk, post } = await handOverOne("Answers")
    const shown = await until(
      "post PUBLISHED with its platform fields",
      () => postOf(desk.api, post.id),
      (p) => p?.state === "PUBLISHED" && p.permalink !== null,
      15_000
    )
    expect(shown).toMatchObject({
      state: "PUBLISHED",
      platformPostId: `yt-${post.id}`,
      permalink: `https://youtube.com/shorts/${post.id}`,
      failureReason: null
    })
    expect(shown!.publishedAt).not.toBeNull()
  }, 120_000)
})

describe("the receipt URL", () => {
  it("sets platformPostId and permalink when the receiver answered a plain {}", async () => {
    rig.receiver.answerWith(() => ({ status: 200, body: {} }))
    const { desk, post } = await handOverOne("Receipts")
    const published = await postInState(desk.api, post.id, "PUBLISHED", 15_000)
    expect(published).toMatchObject({ platformPostId: null, permalink: null })

    const receipt = onNode(rig.node, post.receipt.url)
    expect(new URL(post.receipt.url).pathname).toBe(`/v1/receipts/${post.id}`)
    expect(Date.parse(post.receipt.expiresAt)).toBeGreaterThan(Date.now())
    const page = await fetch(receipt)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    expect(await page.text()).toContain("Gold at a record")

    const permalink = `https://youtube.com/shorts/receipt-${post.id}`
    const recorded = await call(rig.node.url, "POST", new URL(receipt).pathname + new URL(receipt).search, {
      body: { permalink, platformPostId: "yt-98765" }
    })
    expect(recorded.status, recorded.text).toBe(200)
    expect(recorded.body.post).toEqual({ id: post.id, state: "PUBLISHED", platformPostId: "yt-98765", permalink })
    expect(await postOf(desk.api, post.id)).toMatchObject({ state: "PUBLISHED", platformPostId: "yt-98765", permalink })

    // The signature is the only credential: a tampered one changes nothing.
    const tampered = new URL(receipt)
    tampered.searchParams.set("sig", `${tampered.searchParams.get("sig")!.slice(0, -2)}xx`)
    const refused = await call(rig.node.url, "POST", tampered.pathname + tampered.search, {
      body: { permalink: "https://evil.example/x", platformPostId: "nope" }
    })
    expectError(refused, 403, "forbidden")
    expect(await postOf(desk.api, post.id)).toMatchObject({ platformPostId: "yt-98765", permalink })
  }, 120_000)
})
