/**
 * Reference receivers for a self-hosted connector: each checks the Standard Webhooks signature of CONTRACT.md
 * ("Webhook wire format") and hands the post to the platform adapter the operator writes.
 */
const node = `import { createHmac, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"

const secret = Buffer.from(process.env.CLIPWRIGHT_WEBHOOK_SECRET.replace(/^whsec_/, ""), "base64")

createServer((req, res) => {
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8")
    const id = req.headers["webhook-id"], ts = req.headers["webhook-timestamp"]
    const expected = "v1," + createHmac("sha256", secret).update(\`\${id}.\${ts}.\${body}\`).digest("base64")
    const given = String(req.headers["webhook-signature"] ?? "").split(" ")
    const ok = given.some((s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), Buffer.from(expected)))
    if (!ok || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return res.writeHead(401).end()
    const event = JSON.parse(body) // { type: "post.publish" | "post.update" | "post.delete", timestamp, data }
    console.log(event.type, event.data)
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ posts: [] }))
  })
}).listen(Number(process.env.PORT ?? 8787))
`

const python = `import base64, hashlib, hmac, json, os, time
from http.server import BaseHTTPRequestHandler, HTTPServer

SECRET = base64.b64decode(os.environ["CLIPWRIGHT_WEBHOOK_SECRET"].removeprefix("whsec_"))

class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["content-length"] or 0)).decode("utf-8")
        wid, ts = self.headers["webhook-id"], self.headers["webhook-timestamp"]
        mac = hmac.new(SECRET, f"{wid}.{ts}.{body}".encode(), hashlib.sha256).digest()
        expected = "v1," + base64.b64encode(mac).decode()
        given = (self.headers["webhook-signature"] or "").split(" ")
        if not any(hmac.compare_digest(s, expected) for s in given) or abs(time.time() - int(ts)) > 300:
            self.send_response(401); self.end_headers(); return
        event = json.loads(body)  # { type: post.publish | post.update | post.delete, timestamp, data }
        print(event["type"], event["data"])
        self.send_response(200); self.send_header("content-type", "application/json"); self.end_headers()
        self.wfile.write(b'{"posts": []}')

HTTPServer(("", int(os.environ.get("PORT", "8787"))), Receiver).serve_forever()
`

/** By language; a Map, since the language comes from the request path. */
export const connectorScripts: ReadonlyMap<string, { readonly filename: string; readonly script: string }> = new Map([
  ["node", { filename: "connector.mjs", script: node }],
  ["python", { filename: "connector.py", script: python }]
])
