import * as http from "node:http"
import type { AddressInfo } from "node:net"

export interface ReceivedCall {
  readonly headers: http.IncomingHttpHeaders
  readonly body: Buffer
  readonly json: {
    type: string
    timestamp: string
    data: { posts: Array<{ id: string } & Record<string, unknown>> } & Record<string, unknown>
  }
}

export type Answer = (
  call: ReceivedCall
) => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>

/** A webhook receiver on loopback that records every call and answers as the test says (200 by default). */
export const startReceiver = async (answer: Answer = () => ({ status: 200 })) => {
  const calls: Array<ReceivedCall> = []
  const waiters: Array<() => void> = []
  let current = answer
  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks)
      const call: ReceivedCall = { headers: req.headers, body, json: JSON.parse(body.toString("utf8")) }
      calls.push(call)
      waiters.splice(0).forEach((wake) => wake())
      void Promise.resolve(current(call)).then(({ body: answerBody, status }) => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(answerBody === undefined ? "{}" : JSON.stringify(answerBody))
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return {
    url,
    calls,
    answerWith: (next: Answer) => {
      current = next
    },
    /** Resolves once at least `n` calls came in. */
    waitFor: async (n: number, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs
      while (calls.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} webhook calls, got ${calls.length}`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 500)
        })
      }
      return calls
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>
