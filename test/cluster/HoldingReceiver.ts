import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

/** One webhook call as it arrived, with the process that sent it (read from the connection while it was open). */
export interface ArrivedCall {
  readonly webhookId: string
  readonly headers: http.IncomingHttpHeaders
  readonly body: Buffer
  readonly ingestEventId: string
  readonly postIds: ReadonlyArray<string>
  readonly receivedAt: number
  readonly senderPid: number | undefined
}

export interface HeldCall extends ArrivedCall {
  /** Whether the answer waited for `release()`. */
  readonly held: boolean
}

const portOf = (address: string) => parseInt(address.slice(address.lastIndexOf(":") + 1), 16)

/** The socket inode of the TCP connection from `localPort` to `remotePort` on this host (`/proc/net/tcp`, tcp6). */
const inodeOf = (localPort: number, remotePort: number) => {
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const rows = fs.existsSync(table) ? fs.readFileSync(table, "utf8").split("\n").slice(1) : []
    for (const row of rows) {
      const fields = row.trim().split(/\s+/)
      if (fields.length >= 10 && portOf(fields[1]!) === localPort && portOf(fields[2]!) === remotePort) return fields[9]
    }
  }
  return undefined
}

const holdsSocket = (pid: number, inode: string) => {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`
      } catch {
        return false
      }
    })
  } catch {
    return false
  }
}

/** Which of `pids` holds the client end of a connection to `serverPort` coming from `clientPort`. */
export const pidOfConnection = (clientPort: number, serverPort: number, pids: ReadonlyArray<number>) => {
  const inode = inodeOf(clientPort, serverPort)
  return inode === undefined ? undefined : pids.find((pid) => holdsSocket(pid, inode))
}

/**
 * A loopback receiver's request handler: reads each webhook call whole, notes which of `senders()` sent it (while the
 * connection is open), and hands the call on with its response. `port()` is the receiver's own port.
 */
export const readingCalls = (
  port: () => number,
  senders: () => ReadonlyArray<number>,
  onCall: (call: ArrivedCall, res: http.ServerResponse) => void
) =>
(req: http.IncomingMessage, res: http.ServerResponse) => {
  const senderPid = pidOfConnection(req.socket.remotePort!, port(), senders())
  const chunks: Array<Buffer> = []
  req.on("data", (chunk: Buffer) => chunks.push(chunk))
  req.on("end", () => {
    const body = Buffer.concat(chunks)
    const { data } = JSON.parse(body.toString("utf8")) as {
      data: { ingestEventId: string; posts: Array<{ id: string }> }
    }
    onCall({
      webhookId: String(req.headers["webhook-id"]),
      headers: req.headers,
      body,
      ingestEventId: data.ingestEventId,
      postIds: data.posts.map((p) => p.id),
      receivedAt: Date.now(),
      senderPid
    }, res)
  })
}

/**
 * A webhook receiver on loopback that records every call (duplicates included) and answers 200 `{}`, except the first
 * `holdFirst` calls: those wait, connection open, until `release()`. `senders()` names the processes that may call.
 */
export const startHoldingReceiver = async (holdFirst: number, senders: () => ReadonlyArray<number>) => {
  const calls: Array<HeldCall> = []
  const waiters = new Set<() => void>()
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let isReleased = false
  let heldSoFar = 0
  let port = 0

  const server = http.createServer(readingCalls(() => port, senders, (call, res) => {
    const held = !isReleased && heldSoFar < holdFirst
    if (held) heldSoFar++
    calls.push({ ...call, held })
    waiters.forEach((wake) => wake())
    const answer = () => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end("{}")
    }
    if (held) void released.then(answer)
    else answer()
  }))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    calls,
    /** Resolves once `held` calls are waiting for `release()`. */
    waitForHeld: (timeoutMs: number) =>
      new Promise<ReadonlyArray<HeldCall>>((resolve, reject) => {
        const check = () => {
          const held = calls.filter((c) => c.held)
          if (held.length < holdFirst) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve(held)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(
            new Error(`expected ${holdFirst} held webhook calls within ${timeoutMs} ms, got ${calls.length} calls`)
          )
        }, timeoutMs)
        waiters.add(check)
        check()
      }),
    release: () => {
      isReleased = true
      release()
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
export type HoldingReceiver = Awaited<ReturnType<typeof startHoldingReceiver>>
