import MailComposer from "nodemailer/lib/mail-composer"
import { describe, expect, it } from "vitest"
import { hideReceiptLinksInEmail } from "../../src/delivery/log/ReceiptRedaction.js"
import { admin, client } from "../support/Client.js"
import { deliveries, deliveryOf, handOverRig, openDesk, until } from "./HandOverDesk.js"

const rig = handOverRig("handover_receipt_links")

const sigOf = (url: string) => new URL(url).searchParams.get("sig")!

describe("receipt links in the deliveries log", () => {
  it("are hidden from a key holding only connections:read, and kept in the webhook and the email", async () => {
    const desk = await openDesk(rig.node, { name: "Receipts hidden", webhookUrl: rig.receiver.url })
    await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: true })
    const mailsBefore = rig.sink.messages.length
    await desk.send()

    const [call] = await rig.receiver.waitFor(
      rig.receiver.calls.filter((c) => c.json.data.accountId === desk.accountId).length + 1,
      90_000
    )
      .then((calls) => calls.filter((c) => c.json.data.accountId === desk.accountId))
    const receiptUrl = call!.json.data.posts[0]!.receipt as { url: string }
    const sig = sigOf(receiptUrl.url)
    const [mail] = (await rig.sink.waitFor(mailsBefore + 1, 90_000)).slice(mailsBefore)
    // CONTRACT: the receiver and the email's reader get the link whole. Each hand-over signs its own link when it is
    // made, so the email's may carry a later expiry (and so another signature) than the webhook's.
    const mailedUrl = mail!.text!.match(/https?:\/\/\S+\/v1\/receipts\/\S+/)?.[0]
    expect(mailedUrl, mail!.text).toBeDefined()
    expect(mailedUrl!.split("?")[0]).toBe(receiptUrl.url.split("?")[0])
    const mailedSig = sigOf(mailedUrl!)
    expect(mailedSig).toMatch(/^[\w-]{40,}$/)
    const sigOfRow = (via: string) => via === "webhook" ? sig : mailedSig

    const listed = await until(
      "both delivered",
      () => deliveries(desk.api),
      (ds) => ds.filter((d) => d.state === "DELIVERED").length === 2,
      30_000
    )
    const key = await admin(rig.node).post(`/admin/workspaces/${desk.accountId}/keys`, { scopes: ["connections:read"] })
    expect(key.status, key.text).toBe(201)
    const reader = client(rig.node, key.body.apiKey)
    const postId = call!.json.data.posts[0]!.id

    for (const row of listed) {
      // A key that may change posts sees what was sent.
      const whole = await desk.api.get(`/v1/deliveries/${row.id}`)
      expect(whole.text).toContain(sigOfRow(row.via).slice(0, 20))

      const shown = await reader.get(`/v1/deliveries/${row.id}`)
      expect(shown.status, shown.text).toBe(200)
      expect(shown.text).not.toContain(sigOfRow(row.via))
      expect(shown.text).not.toContain(sigOfRow(row.via).slice(0, 20))
      expect(shown.text).toContain(`/v1/receipts/${postId}?hidden`)
      if (row.via === "webhook") {
        expect(shown.body.delivery.body.data.posts[0].receipt.url).toMatch(
          new RegExp(`/v1/receipts/${postId}\\?hidden$`)
        )
        // Everything else as sent.
        expect(shown.body.delivery.body.data.posts[0].title).toBe(call!.json.data.posts[0]!.title)
      } else {
        expect(shown.body.delivery.body).toContain("Gold at a record")
      }
    }
    expect((await deliveryOf(desk.api, listed[0]!.id)).state).toBe("DELIVERED")
  }, 120_000)

  it("hides a receipt link in a base64 or quoted-printable email text", async () => {
    const link =
      "https://clips.example/v1/receipts/01POST?exp=1798337240&sig=ZWsx4c46Tr7G0glyb-KVR7f6dT5AH9_CHy_-nJcPNxU"
    for (const words of ["日本語のキャプション。".repeat(20), `Caption · ${"long words ".repeat(20)}`]) {
      const raw = (await new MailComposer({
        from: "a@example.test",
        to: "b@example.test",
        subject: "x",
        text: `${words}\nPublished it? Tell us where: ${link}\n`,
        html: `<p>${words}</p><p><a href="${link.replace("&", "&amp;")}">Tell us where</a></p>`,
        newline: "windows"
      }).compile().build()).toString("utf8")
      expect(raw).not.toContain(link)
      const shown = hideReceiptLinksInEmail(raw)
      expect(shown).not.toContain("ZWsx4c46Tr7G0glyb")
      expect(shown).toContain("https://clips.example/v1/receipts/01POST?hidden")
      expect(shown).toContain(words.slice(0, 10))
    }
  })
})
