import { createServer } from "node:http"

/**
 * The yardstick of the benchmark: a bare `node:http` server answering the whoami JSON of the real node
 * (`BODY`), after the same bearer check a client must pass. Run as its own process; prints `ready` once it listens.
 */
const body = process.env["BODY"] ?? "{}"
const port = Number(process.env["PORT"] ?? "0")

const server = createServer((request, response) => {
  if (request.url !== "/v1/whoami" || !(request.headers["authorization"] ?? "").startsWith("Bearer ")) {
    response.writeHead(401, { "content-type": "application/json" }).end("{\"error\":{\"code\":\"unauthenticated\"}}")
    return
  }
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body)
})

server.listen(port, "127.0.0.1", () => process.stdout.write("ready\n"))
process.on("SIGTERM", () => server.close(() => process.exit(0)))
