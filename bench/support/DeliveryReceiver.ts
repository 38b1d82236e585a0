import { createServer } from "node:http"

/**
 * The webhook receiver of `npm run bench:deliveries`, as its own process so it never competes with the node's event
 * loop: every POST is read whole and answered 200 `{}` at once. It remembers, per path, each call's `webhook-id` and
 * arrival (epoch ms, this machine's clock, which PostgreSQL shares). `GET /calls?path=/hooks` answers them as
 * `[[webhookId, arrivedAtMs], …]`, `GET /count?path=/hooks` how many came. Prints `ready` once it listens.
 */
const port = Number(process.env["PORT"] ?? "0")
const calls = new Map<string, Array<[string, number]>>()

const server = createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://receiver")
  if (request.method === "GET") {
    const seen = calls.get(url.searchParams.get("path") ?? "") ?? []
    const answer = url.pathname === "/count" ? String(seen.length) : JSON.stringify(seen)
    response.writeHead(200, { "content-type": "application/json" }).end(answer)
    return
  }
  request.resume()
  request.on("end", () => {
    const arrivedAt = Date.now()
    const seen = calls.get(url.pathname) ?? []
    calls.set(url.pathname, seen)
    seen.push([String(request.headers["webhook-id"]), arrivedAt])
    response.writeHead(200, { "content-type": "application/json", "content-length": 2 }).end("{}")
  })
})

server.keepAliveTimeout = 30_000
server.listen(port, "127.0.0.1", () => process.stdout.write("ready\n"))
process.on("SIGTERM", () => server.close(() => process.exit(0)))
