import { afterAll, describe, expect, it } from "vitest"
import { type S3Harness, startS3 } from "../storage/S3Harness.js"
import { expectHandOverEmail } from "./EmailFacts.js"
import { deliveries, handOverRig, openDesk, until } from "./HandOverDesk.js"

// The store first: its afterAll, registered before the rig's, runs after the node has stopped.
const s3: S3Harness = await startS3("handover-store")
afterAll(() => s3.close())
const rig = handOverRig("handover_email_store", { env: s3.env("handover") })

const OUTAGE_MS = 10_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const isApprovalAsk = (subject: string | undefined) => subject?.includes("for your approval") === true

describe("hand-over email with the files in an object store", () => {
  it("waits for its still while the store is down, and goes out whole once the store is back", async () => {
    const desk = await openDesk(rig.node, {
      name: "Store desk",
      members: [{ email: "ops@example.test", role: "operations" }]
    })
    // Approval holds the post back until the store is down: the email is composed (its still taken) only then.
    await desk.channel({
      name: "Reviewed",
      surface: "instagram-reels",
      approval: "PER_POST",
      deliverByWebhook: false,
      deliverByEmail: true
    })
    await desk.send()
    const approval = await until(
      "the post's approval",
      async () => (await desk.api.get("/v1/approvals")).body.approvals[0] as { id: string } | undefined,
      (found) => found !== undefined,
      180_000,
      500
    )
    await until(
      "the approval request",
      async () => rig.sink.messages.filter((m) => isApprovalAsk(m.subject)),
      (m) => m.length >= 1,
      60_000
    )
    const handOverMail = () => rig.sink.messages.filter((m) => !isApprovalAsk(m.subject))

    await s3.stop()
    const waitsBefore = rig.node.output().split("Waiting for the object store").length
    try {
      const decided = await desk.api.post(`/v1/approvals/${approval!.id}`, { state: "APPROVED" })
      expect(decided.status, decided.text).toBe(200)
      await sleep(OUTAGE_MS)
      // Nothing went out without its still, and the node said what it waits for.
      expect(handOverMail()).toHaveLength(0)
      expect(rig.node.output().split("Waiting for the object store").length).toBeGreaterThan(waitsBefore)
      expect((await deliveries(desk.api)).filter((d) => d.state === "DELIVERED")).toHaveLength(0)
    } finally {
      await s3.start()
    }

    const [mail] = await until("the hand-over email", async () => handOverMail(), (m) => m.length >= 1, 60_000)
    const recipients = ["ops@example.test", "owner@example.test"]
    // The still is in it: it was taken from the store once the store answered, not left out.
    await expectHandOverEmail(mail!, { node: rig.node, api: desk.api, recipients })
    const [email] = await until("email DELIVERED", () => deliveries(desk.api), (ds) => ds[0]?.state === "DELIVERED")
    expect(email).toMatchObject({ via: "email", attempt: 1, lastStatusCode: 250 })
    expect(rig.node.output()).not.toContain("clip still: none taken")
    expect(handOverMail()).toHaveLength(1)
  }, 300_000)
})
