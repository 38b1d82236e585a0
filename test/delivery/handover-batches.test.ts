import { describe, expect, it } from "vitest"
import { verifyWebhook } from "../../src/delivery/receiver/Verify.js"
import { query } from "../support/Database.js"
import { type ReceivedCall } from "../support/Receiver.js"
import { deliveries, handOverRig, openDesk, until } from "./HandOverDesk.js"

const rig = handOverRig("handover_batches")

const channelsOf = (call: ReceivedCall) => call.json.data.posts.map((p) => (p.channel as { id: string }).id).sort()

describe("hand-over batches", () => {
  it("sends an event's channels without approval together, and the approved one on its own, signed", async () => {
    const desk = await openDesk(rig.node, {
      name: "Batches",
      webhookUrl: rig.receiver.url,
      members: [{ email: "ops@example.test", role: "operations" }, { email: "viewer@example.test", role: "member" }]
    })
    const shorts = await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true })
    const telegram = await desk.channel({
      name: "Telegram",
      surface: "telegram",
      ratio: "1x1",
      deliverByWebhook: true,
      deliverByEmail: false
    })
    const reviewed = await desk.channel({
      name: "Reviewed",
      surface: "tiktok",
      approval: "PER_POST",
      deliverByWebhook: true
    })
    await desk.send()

    const [first] = await rig.receiver.waitFor(1, 150_000)
    // The sink also gets the request to approve the reviewed channel's post (test/publishing/approval-requests.test.ts): hand-over mail only here.
    const handOverMail = () => rig.sink.messages.filter((m) => m.subject?.includes("for your approval") !== true)
    const [firstMail] = await until(
      "the first hand-over email",
      async () => handOverMail(),
      (m) => m.length >= 1,
      30_000
    )
    expect(verifyWebhook(desk.secret!, first!.headers as Record<string, string>, first!.body).ok).toBe(true)
    expect(first!.json.type).toBe("post.publish")
    expect(channelsOf(first!)).toEqual([shorts, telegram].sort())
    // Only the channel that emails goes into the email: to the owner and Operations, not to a plain member.
    expect(firstMail!.envelope.to.slice().sort()).toEqual(["ops@example.test", "owner@example.test"])
    expect(firstMail!.subject).toBe("New post: Gold at a record")

    // The approval channel's post is written when its job hears the (shared) render's end, which may come later.
    const approval = (await until("the approval channel's approval", async () =>
      ((await desk.api.get("/v1/approvals")).body.approvals as Array<{ id: string }>)
        .find((x) =>
          JSON.stringify(x).includes(reviewed)
        ), (found) =>
      found !== undefined))!
    const decided = await desk.api.post(`/v1/approvals/${approval.id}`, { state: "APPROVED" })
    expect(decided.status, decided.text).toBe(200)
    const calls = await rig.receiver.waitFor(2, 30_000)
    await until("the second hand-over email", async () =>
      handOverMail(), (m) =>
      m.length >= 2, 30_000)
    expect(channelsOf(calls[1]!)).toEqual([reviewed])
    expect(verifyWebhook(desk.secret!, calls[1]!.headers as Record<string, string>, calls[1]!.body).ok).toBe(true)

    const posts = await until(
      "every post published",
      () => query(rig.db.url, "SELECT state, published_at FROM posts WHERE workspace_id = $1", [desk.accountId]),
      (rows) => rows.every((p) => p.state === "PUBLISHED")
    )
    expect(posts).toHaveLength(3)
    expect(posts.every((p) => p.published_at !== null)).toBe(true)
    // Two webhook calls and two emails: exactly two batches.
    const log = await deliveries(desk.api)
    expect(log.map((d) => [d.via, d.state]).sort()).toEqual([
      ["email", "DELIVERED"],
      ["email", "DELIVERED"],
      ["webhook", "DELIVERED"],
      ["webhook", "DELIVERED"]
    ])
    expect(rig.receiver.calls).toHaveLength(2)
  }, 240_000)
})
