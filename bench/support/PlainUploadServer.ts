import * as fs from "node:fs"
import { createServer } from "node:http"
import * as path from "node:path"
import { pipeline } from "node:stream/promises"

/**
 * The yardstick of the upload benchmark: a bare `node:http` server that streams each request body, as it comes
 * (multipart framing and all), to its own file in `DIR` and answers `{ bytes }`. Run as its own process; prints `ready`
 * once it listens.
 */
const dir = process.env["DIR"] ?? "."
const port = Number(process.env["PORT"] ?? "0")
let counter = 0

const server = createServer((request, response) => {
  if (request.method !== "POST" || !(request.headers["authorization"] ?? "").startsWith("Bearer ")) {
    response.writeHead(401, { "content-type": "application/json" }).end("{\"error\":{\"code\":\"unauthenticated\"}}")
    return
  }
  const file = path.join(dir, `upload-${counter++}`)
  const out = fs.createWriteStream(file)
  pipeline(request, out).then(
    () => {
      const body = JSON.stringify({ bytes: out.bytesWritten })
      response.writeHead(201, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        .end(body)
    },
    (error: unknown) => {
      response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: String(error) }))
    }
  )
})

server.listen(port, "127.0.0.1", () => process.stdout.write("ready\n"))
process.on("SIGTERM", () => server.close(() => process.exit(0)))
