import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { verifyWebhook } from "../../src/delivery/receiver/Verify.js"
import { readingCalls } from "../../test/cluster/HoldingReceiver.js"

/** One webhook call as it arrived: its delivery id, the posts it carried and the process that sent it. */
export interface FaultCall {
  readonly webhookId: string
  readonly postIds: ReadonlyArray<string>
  readonly receivedAt: number
  readonly senderPid: number | undefined
  readonly held: boolean
}

/**
 * The matrix's loopback webhook receiver: answers 200 `{}` and records every call (duplicates included). It can go
 * down (stops listening, drops its connections: the sender sees connection refused) and come back on the same port,
 * and can hold the calls that arrive until `release()`, their connections open. Once told the secret, it verifies
 * every call as a receiver does (5 minutes' tolerance, at the nodes' signing clock) and refuses, 401, one that fails.
 * Told a second clock (the nodes replaced by ones signing on a compressed clock), it takes a call that verifies at
 * either: the two are hours apart, so a call signed at one is never within the tolerance of the other.
 */
export const startFaultsReceiver = async (senders: () => ReadonlyArray<number>, now: () => number) => {
  const clocks = [now]
  const calls: Array<FaultCall> = []
  let holding = false
  const releaseHeld: Array<() => void> = []
  let port = 0
  let secret: string | undefined
  let refused = 0
  // Every call is judged on its signature and time; a repeated id is the service's to avoid (postsNotOnce counts it).
  const remembersNothing = { has: () => false, add: () => undefined }

  const server = http.createServer(readingCalls(() => port, senders, (call, res) => {
    const verdicts = secret === undefined ?
      [] :
      clocks.map((now) =>
        verifyWebhook(secret!, call.headers as Record<string, string>, call.body, { now, seen: remembersNothing })
      )
    const verdict = verdicts.find((v) => v.ok) ?? verdicts.at(-1)
    if (verdict !== undefined && !verdict.ok) {
      refused++
      res.writeHead(verdict.status, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: { code: verdict.code, message: verdict.message } }))
      return
    }
    const held = holding
    calls.push({
      webhookId: call.webhookId,
      postIds: call.postIds,
      receivedAt: call.receivedAt,
      senderPid: call.senderPid,
      held
    })
    const answer = () => {
      if (res.destroyed) return
      res.writeHead(200, { "content-type": "application/json" })
      res.end("{}")
    }
    if (held) releaseHeld.push(answer)
    else answer()
  }))
  const listen = () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  await listen()
  port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    calls,
    /** Stops listening and cuts every open connection. */
    down: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
    up: listen,
    verifyWith: (whsec: string) => {
      secret = whsec
    },
    alsoVerifyAt: (now: () => number) => {
      clocks.push(now)
    },
    /** Calls refused for their signature or timestamp so far. */
    refused: () => refused,
    hold: () => {
      holding = true
    },
    held: () => calls.filter((c) => c.held),
    release: () => {
      holding = false
      releaseHeld.splice(0).forEach((answer) => answer())
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve()
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
export type FaultsReceiver = Awaited<ReturnType<typeof startFaultsReceiver>>
