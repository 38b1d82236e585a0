import * as net from "node:net"
import { beforeAll, describe, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { mp4 } from "../support/MediaFiles.js"
import { useNode } from "../support/Rig.js"
import { expectError } from "../support/Routes.js"
import { peakRssDuring, rssOf, streamUpload } from "../support/Uploads.js"

// Bodies that announce no length (chunked): the size is only learnt by reading, so the cap must hold while reading.
let key: string

const { node } = useNode({ label: "hostile_bodies" })

beforeAll(async () => {
  key = (await workspaceWithKey(node, ["*"], "Hostile bodies")).apiKey
}, 120_000)

const MB = 1024 * 1024

/** `size` bytes of one JSON string, sent chunked: `{"name":"aaaa…"}`, never a Content-Length. */
const chunkedJson = (size: number) => {
  const encoder = new TextEncoder()
  const filler = new Uint8Array(256 * 1024).fill(0x61)
  let sent = 0
  let opened = false
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!opened) {
        opened = true
        return controller.enqueue(encoder.encode("{\"name\":\""))
      }
      if (sent >= size) {
        controller.enqueue(encoder.encode("\"}"))
        return controller.close()
      }
      const piece = filler.subarray(0, Math.min(filler.length, size - sent))
      sent += piece.length
      controller.enqueue(piece)
    }
  })
}

/** Polls /health until `done` settles; answers every status seen. */
const healthDuring = async (done: Promise<unknown>) => {
  const seen: Array<number> = []
  let finished = false
  void done.finally(() => (finished = true))
  while (!finished) {
    seen.push(await fetch(`${node.url}/health`, { signal: AbortSignal.timeout(10_000) }).then((r) => r.status, () => 0))
    await new Promise((r) => setTimeout(r, 50))
  }
  return seen
}

const post = (path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  fetch(`${node.url}${path}`, { method: "POST", headers, body, duplex: "half" } as RequestInit).then(
    async (r) => ({ status: r.status, headers: r.headers, text: (await r.text()).slice(0, 2000) }),
    (error: unknown) => ({
      status: 0,
      headers: new Headers(),
      text: `${String(error)} ${String((error as { cause?: unknown }).cause)}`
    })
  )

/**
 * Sends `size` bytes of a JSON string chunked over a raw socket, every byte whatever the server answers meanwhile (a
 * fetch stops sending once the answer arrives), and answers the status line the server wrote.
 */
const rawChunkedJson = (path: string, size: number) =>
  new Promise<{ readonly status: number; readonly sent: number }>((resolve, reject) => {
    const { hostname, port } = new URL(node.url)
    const socket = net.connect(Number(port), hostname)
    let answer = ""
    let sent = 0
    // Kept alive, so the server reads the rest of the body; closed here once the whole answer has arrived.
    const closeWhenAnswered = () => {
      const head = answer.indexOf("\r\n\r\n")
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(answer)?.[1] ?? "-1")
      if (head !== -1 && length >= 0 && answer.length >= head + 4 + length && sent >= size) socket.destroy()
    }
    socket.on("data", (d) => {
      answer += d.toString("latin1")
      closeWhenAnswered()
    })
    socket.on("error", reject)
    socket.on("close", () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), sent }))
    const chunk = (bytes: Buffer) =>
      Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")])
    const filler = chunk(Buffer.alloc(256 * 1024, 0x61))
    socket.on("connect", async () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n` +
          "transfer-encoding: chunked\r\n\r\n"
      )
      socket.write(chunk(Buffer.from("{\"name\":\"")))
      while (sent < size && !socket.destroyed) {
        sent += 256 * 1024
        if (!socket.write(filler)) await new Promise((r) => socket.once("drain", r))
      }
      if (!socket.destroyed) socket.write(Buffer.concat([chunk(Buffer.from("\"}")), Buffer.from("0\r\n\r\n")]))
      closeWhenAnswered()
    })
  })

const asAnswer = (r: { status: number; headers: Headers; text: string }) => ({ ...r, body: JSON.parse(r.text) })

describe("bodies without a length", () => {
  it(
    "a 50 MB chunked JSON body without a key is 413 while /health keeps answering, and memory stays flat",
    async () => {
      const pid = node.process.pid!
      const before = rssOf(pid)
      const { peak, result } = await peakRssDuring(pid, async () => {
        const sending = post("/v1/brands", chunkedJson(50 * MB), { "content-type": "application/json" })
        const health = await healthDuring(sending)
        return { answer: await sending, health }
      })
      expect(result.answer.status, result.answer.text).toBe(413)
      expect(expectError(asAnswer(result.answer), 413, "payload_too_large").message).toContain("1 MB")
      expect(result.health.length).toBeGreaterThan(0)
      expect(result.health.every((s) => s === 200), String(result.health)).toBe(true)
      const growth = peak - before
      expect(growth, `RSS grew by ${(growth / MB).toFixed(1)} MB`).toBeLessThan(40 * MB)
      expect((await fetch(`${node.url}/health`)).status).toBe(200)
    },
    120_000
  )

  it(
    "every byte of a 50 MB chunked body is read and dropped, the 413 then read, /health answering throughout",
    async () => {
      const pid = node.process.pid!
      const before = rssOf(pid)
      const { peak, result } = await peakRssDuring(pid, async () => {
        const sending = rawChunkedJson("/v1/brands", 50 * MB)
        const health = await healthDuring(sending)
        return { answer: await sending, health }
      })
      expect(result.answer).toEqual({ status: 413, sent: 50 * MB })
      expect(result.health.length).toBeGreaterThan(1)
      expect(result.health.every((s) => s === 200), String(result.health)).toBe(true)
      const growth = peak - before
      expect(growth, `RSS grew by ${(growth / MB).toFixed(1)} MB`).toBeLessThan(40 * MB)
    },
    120_000
  )

  it("with a key, the same body is 413 too", async () => {
    const r = await post("/v1/brands", chunkedJson(5 * MB), {
      "content-type": "application/json",
      authorization: `Bearer ${key}`
    })
    expectError(asAnswer(r), 413, "payload_too_large")
  }, 60_000)

  it("an upload sent chunked past the most any upload may be is 413, and /health answers throughout", async () => {
    for (const [as, status] of [[key, 413], ["not-a-key", 401]] as const) {
      const sending = streamUpload(`${node.url}/v1/media`, as, mp4(), 70 * MB, "big.mp4")
      const health = await healthDuring(sending)
      const r = await sending
      expect(r.status, r.text).toBe(status)
      expect(health.every((s) => s === 200), String(health)).toBe(true)
    }
    expect((await fetch(`${node.url}/health`)).status).toBe(200)
  }, 120_000)

  it(
    "a receipt form (read by the platform whole) sent chunked past its limit is 413, /health answers throughout",
    async () => {
      const url = `${node.url}/v1/receipts/01ARZ3NDEKTSV4RRFFQ69G5FAV?exp=1&sig=x`
      const sending = streamUpload(url, "none", new Uint8Array(16), 40 * MB, "r.txt")
      const health = await healthDuring(sending)
      const r = await sending
      expect(r.status, r.text.slice(0, 300)).toBe(413)
      expect(health.every((s) => s === 200), String(health)).toBe(true)
    },
    120_000
  )
})
