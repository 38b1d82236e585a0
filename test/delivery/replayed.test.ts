import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { type RunningReceiver, startReceiver } from "../../src/delivery/receiver/Receiver.js"
import { useNode } from "../support/Rig.js"
import { deliveryOf, openDesk, postOf, until } from "./HandOverDesk.js"

let shipped: RunningReceiver | undefined
let front: http.Server | undefined

afterAll(async () => {
  await shipped?.close()
  front?.closeAllConnections()
  front?.close()
})

const { node } = useNode({
  label: "handover_replayed",
  env: { ALLOW_PRIVATE_URLS: "true", DELIVERY_RETRY_SCHEDULE: "1s,1s" }
})

interface Relayed {
  readonly status: number
  readonly told: number
  readonly text: string
}

/**
 * Passes every call on to the shipped receiver and its answer back, except that the first answer is lost: the node
 * is told 503 although the receiver processed the message (as when a node dies before recording a 2xx).
 */
const startLossyFront = async (target: () => string) => {
  const relayed: Array<Relayed> = []
  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter((e): e is [string, string] =>
          typeof e[1] === "string" && e[0] !== "host" && e[0] !== "content-length"
        )
      )
      void fetch(target(), { method: "POST", headers, body: Buffer.concat(chunks) }).then(async (answer) => {
        const text = await answer.text()
        const told = relayed.length === 0 ? 503 : answer.status
        relayed.push({ status: answer.status, told, text })
        res.writeHead(told, { "content-type": "application/json" })
        res.end(told === answer.status ? text : "{}")
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, relayed }
}

describe("a receiver that already has the message", () => {
  it("answers 409 replayed to the next attempt, and that counts as delivered: the post is PUBLISHED", async () => {
    let receiverUrl = ""
    const lossy = await startLossyFront(() => receiverUrl)
    front = lossy.server
    const desk = await openDesk(node, { name: "Already had it", webhookUrl: lossy.url })
    const printed: Array<string> = []
    shipped = await startReceiver({ secret: desk.secret!, port: 0, print: (line) => printed.push(line) })
    receiverUrl = shipped.url
    await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: false })
    await desk.send()

    await until("two attempts", async () => lossy.relayed.length, (n) => n >= 2, 90_000)
    expect(lossy.relayed[0]).toMatchObject({ status: 200, told: 503 })
    expect(lossy.relayed[1]).toMatchObject({ status: 409, told: 409 })
    expect(JSON.parse(lossy.relayed[1]!.text).error.code).toBe("replayed")
    // Processed once: the receiver printed the post on the first call only.
    expect(printed).toHaveLength(1)
    const postId = printed[0]!.split(" ")[1]!

    const published = await until(
      "post PUBLISHED",
      () => postOf(desk.api, postId),
      (p) => p?.state !== "PUBLISHING",
      15_000
    )
    expect(published).toMatchObject({ state: "PUBLISHED", failureReason: null })
    const deliveryId = (await desk.api.get("/v1/deliveries")).body.deliveries[0].id as string
    const delivered = await deliveryOf(desk.api, deliveryId)
    expect(delivered).toMatchObject({ state: "DELIVERED", attempt: 2, lastStatusCode: 409, lastError: null })
    expect(delivered.attempts.map((a: { statusCode: number; error: string | null }) => [a.statusCode, a.error]))
      .toEqual([[503, "The receiver answered 503."], [409, null]])
    // No third attempt follows a delivered one.
    expect(delivered.nextAttemptAt).toBeNull()
    expect((await desk.api.get("/v1/overview")).body.attention.deadDeliveries).toBe(0)
  }, 120_000)
})
