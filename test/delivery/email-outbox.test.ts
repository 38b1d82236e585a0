import { simpleParser } from "mailparser"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { useNode } from "../support/Rig.js"
import { expectHandOverEmail } from "./EmailFacts.js"
import { deliveries, deliveryOf, openDesk, postInState, until } from "./HandOverDesk.js"

// No SMTP_URL: hand-over emails are written to DATA_DIR/outbox.
const { node } = useNode({
  label: "handover_outbox",
  env: { ALLOW_PRIVATE_URLS: "true", DELIVERY_RETRY_SCHEDULE: "1s,1s" }
})

describe("hand-over email without SMTP_URL", () => {
  it("writes the email as an .eml file in the outbox, with the same facts, and publishes the post", async () => {
    const desk = await openDesk(node, {
      name: "Outbox desk",
      members: [
        { email: "ops@example.test", role: "operations" },
        { email: "viewer@example.test", role: "member" }
      ]
    })
    await desk.channel({ name: "Reels", surface: "instagram-reels", deliverByWebhook: false, deliverByEmail: true })
    await desk.send()

    const [email] = await until(
      "email DELIVERED",
      () => deliveries(desk.api),
      (ds) => ds[0]?.state === "DELIVERED",
      90_000,
      250
    )
    expect(email).toMatchObject({ via: "email", event: "post.publish", attempt: 1 })
    const file = path.join(node.dataDir, "outbox", `${email!.id}.eml`)
    const raw = fs.readFileSync(file)
    // Only the finished message is in the outbox: no temporary file is left beside it.
    expect(fs.readdirSync(path.dirname(file))).toEqual([`${email!.id}.eml`])

    const recipients = ["ops@example.test", "owner@example.test"]
    const postId = await expectHandOverEmail(await simpleParser(raw, { keepCidLinks: true }), {
      node,
      api: desk.api,
      recipients
    })
    expect(email!.postIds).toEqual([postId])

    const logged = await deliveryOf(desk.api, email!.id)
    expect(logged.attempts[0].answer).toBe(`written to outbox/${email!.id}.eml`)
    // The log shows the message as written (it is well under the 64 KB the log shows).
    expect(logged.bodyTruncated).toBe(false)
    expect(logged.body).toBe(raw.toString("utf8"))
    const published = await postInState(desk.api, postId, "PUBLISHED", 10_000)
    expect(published!.publishedAt).not.toBeNull()
  }, 120_000)
})
