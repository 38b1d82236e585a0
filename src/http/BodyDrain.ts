import type { IncomingMessage } from "node:http"

/** Past this many dropped bytes the connection is closed rather than drained: no route takes more (uploads, 50 MB). */
export const DRAIN_CEILING = 52 * 1024 * 1024

/**
 * After a refusal part-way through a body nothing more is kept, but the rest is read and dropped so the client can
 * finish sending and read the answer (closing at once resets the connection under the client's feet). Past
 * `DRAIN_CEILING` the connection is closed instead.
 */
export const drainRest = (incoming: IncomingMessage) => {
  if (incoming.readableEnded || incoming.destroyed) return
  let dropped = 0
  incoming.unpipe()
  incoming.on("data", (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > DRAIN_CEILING) incoming.socket.destroy()
  })
  incoming.resume()
}
