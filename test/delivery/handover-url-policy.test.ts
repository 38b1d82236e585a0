import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { admin } from "../support/Client.js"
import { query } from "../support/Database.js"
import { type Receiver, startReceiver } from "../support/Receiver.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"
import { deliveries, deliveryOf, openDesk, postInState, until } from "./HandOverDesk.js"

let receiver: Receiver

// Without ALLOW_PRIVATE_URLS, as in production.
beforeAll(async () => {
  receiver = await startReceiver()
})

afterAll(async () => {
  await receiver?.stop()
})

const { db, node } = useNode({ label: "handover_url_policy", env: () => ({ DELIVERY_RETRY_SCHEDULE: "1s,1s" }) })

describe("the webhook URL policy", () => {
  it("refuses a private address when it is set, and again when sending to one that got in anyway", async () => {
    const desk = await openDesk(node, { name: "Policy" })
    const port = new URL(receiver.url).port
    const a = admin(node)
    for (const url of [`http://127.0.0.1:${port}/hooks`, `http://localhost:${port}/hooks`]) {
      const refused = await a.put(`/admin/workspaces/${desk.accountId}/webhook`, { url })
      expect(expectError(refused, 400, "blocked_url").details.map((d) => d.path), url).toEqual(["/url"])
    }

    // An address the set-time check never saw: a name that resolves to loopback, written straight into the row.
    const secret = `whsec_${randomBytes(32).toString("base64")}`
    await query(db.url, "UPDATE workspaces SET webhook_url = $2, webhook_secret = $3 WHERE id = $1", [
      desk.accountId,
      `http://localhost:${port}/hooks`,
      secret
    ])
    await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: false })
    await desk.send()

    const [made] = await until("a webhook delivery", () => deliveries(desk.api), (ds) => ds.length > 0, 90_000, 250)
    const dead = await until("delivery DEAD", () => deliveryOf(desk.api, made!.id), (d) => d.state === "DEAD", 15_000)
    expect(dead.via).toBe("webhook")
    // Checked on the address the name resolved to, when connecting.
    expect(dead.lastError).toMatch(/^blocked_url: localhost resolves to /)
    expect(dead.attempts).toHaveLength(3)
    for (const attempt of dead.attempts) {
      expect(attempt.error).toMatch(/^blocked_url:/)
      expect(attempt.statusCode).toBeNull()
    }
    expect(receiver.calls).toHaveLength(0)

    const failed = await postInState(desk.api, made!.postId, "POST_FAILED", 10_000)
    expect(failed!.failureReason).toContain("blocked_url")
    expect((await desk.api.get("/v1/overview")).body.attention.deadDeliveries).toBe(1)
  }, 120_000)

  it(
    "refuses multicast, broadcast, reserved, benchmarking and tunnelled private addresses when the webhook is set",
    async () => {
      const desk = await openDesk(node, { name: "Ranges" })
      const a = admin(node)
      const urls = [
        "http://192.0.0.170/hooks",
        "http://198.18.0.1/hooks",
        "http://224.0.0.251/hooks",
        "http://255.255.255.255/hooks",
        "http://240.0.0.1/hooks",
        "http://[ff02::1]/hooks",
        "http://[fec0::1]/hooks",
        "http://[2002:c0a8:101::1]/hooks",
        "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hooks"
      ]
      for (const url of urls) {
        const refused = await a.put(`/admin/workspaces/${desk.accountId}/webhook`, { url })
        expect(expectError(refused, 400, "blocked_url").details.map((d) => d.path), url).toEqual(["/url"])
      }
      const kept = await query(db.url, "SELECT webhook_url FROM workspaces WHERE id = $1", [desk.accountId])
      expect(kept[0]!.webhook_url).toBeNull()
    },
    60_000
  )
})
