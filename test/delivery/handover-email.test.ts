import { describe, expect, it } from "vitest"
import { expectHandOverEmail } from "./EmailFacts.js"
import { deliveries, deliveryOf, handOverRig, openDesk, postInState, until } from "./HandOverDesk.js"

const rig = handOverRig("handover_email")

describe("hand-over email over SMTP", () => {
  it("goes to the owner and Operations with both bodies, the inline still, the clip link and every text", async () => {
    const desk = await openDesk(rig.node, {
      name: "Mail desk",
      members: [
        { email: "ops@example.test", role: "operations" },
        { email: "viewer@example.test", role: "member" }
      ]
    })
    await desk.channel({ name: "Reels", surface: "instagram-reels", deliverByWebhook: false, deliverByEmail: true })
    await desk.send()

    const [mail] = await rig.sink.waitFor(1, 90_000)
    const recipients = ["ops@example.test", "owner@example.test"]
    // A plain member is not told; the envelope says so as well as the header.
    expect([...mail!.envelope.to].sort()).toEqual(recipients)
    const postId = await expectHandOverEmail(mail!, { node: rig.node, api: desk.api, recipients })

    const [email] = await until(
      "email DELIVERED",
      () => deliveries(desk.api),
      (ds) => ds[0]?.state === "DELIVERED",
      15_000
    )
    expect(email).toMatchObject({
      via: "email",
      event: "post.publish",
      attempt: 1,
      postIds: [postId],
      lastStatusCode: 250
    })
    const logged = await deliveryOf(desk.api, email!.id)
    expect([...logged.recipients].sort()).toEqual(recipients)
    expect(logged.headers.subject).toBe(mail!.subject)
    const published = await postInState(desk.api, postId, "PUBLISHED", 10_000)
    expect(published!.publishedAt).not.toBeNull()
    expect(rig.sink.messages).toHaveLength(1)
  }, 120_000)
})
