import { createTestDatabase } from "./Database.js"
import { startNode } from "./Node.js"
import { admin, call, workspaceWithKey } from "./Client.js"
const db = await createTestDatabase("probe")
const node = await startNode({ databaseUrl: db.url })
const race = (p: Promise<any>) => Promise.race([p, new Promise((res) => setTimeout(() => res({ status: "TIMEOUT", text: "" }), 8000))])
try {
  const ws = await workspaceWithKey(node, ["*"])
  const show = (label: string, r: any) => console.log(label, r.status, r.text.slice(0, 300))
  show("nul ws", await race(admin(node).post("/admin/workspaces", { name: "a\u0000b" })))
  show("nul stream", await race(ws.api.post("/v1/streams", { name: "a\u0000b", templateId: "tpl_3a7c91e04b5d" })))
  show("nul desc", await race(ws.api.post("/v1/streams", { name: "ab", description: "x\u0000", templateId: "tpl_3a7c91e04b5d" })))
  show("nul fieldmap", await race(ws.api.post("/v1/streams", { name: "ab", templateId: "tpl_3a7c91e04b5d", fieldMap: { "/clipData/headline": { from: "/a\u0000" } } })))
  show("nul fieldmap key", await race(ws.api.post("/v1/streams", { name: "ab", templateId: "tpl_3a7c91e04b5d", fieldMap: { "/x\u0000": { from: "/a" } } })))
  show("nul const", await race(ws.api.post("/v1/streams", { name: "ab", templateId: "tpl_3a7c91e04b5d", fieldMap: { "/clipData/headline": { const: "a\u0000" } } })))
  show("nul member", await race(admin(node).post(`/admin/workspaces/${ws.accountId}/members`, { email: "a\u0000@b.c", role: "member" })))
  show("nul key name", await race(admin(node).post(`/admin/workspaces/${ws.accountId}/keys`, { scopes: [], name: "\u0000" })))
  show("lone surrogate", await race(admin(node).post("/admin/workspaces", { name: "a\ud800b" })))
  show("webhook private", await race(admin(node).put(`/admin/workspaces/${ws.accountId}/webhook`, { url: "http://127.0.0.1:9/hook" })))
  show("webhook junk", await race(admin(node).put(`/admin/workspaces/${ws.accountId}/webhook`, { url: "not a url" })))
  show("svc own", await ws.api.get("/v1/streams", { "x-service-account": ws.accountId }))
  show("svc other", await ws.api.get("/v1/streams", { "x-service-account": "01ABC" }))
  show("empty scopes", await admin(node).post(`/admin/workspaces/${ws.accountId}/keys`, { scopes: [] }))
  show("huge num", await race(ws.api.post("/v1/streams", { name: "ab", templateId: "tpl_3a7c91e04b5d", enabled: 1e400 })))
  show("deep", await race(call(node.url, "POST", "/v1/streams", { key: ws.apiKey, raw: "[".repeat(100000) + "]".repeat(100000), headers: { "content-type": "application/json" } })))
  show("null body", await race(call(node.url, "POST", "/v1/streams", { key: ws.apiKey, raw: "null", headers: { "content-type": "application/json" } })))
  show("suggest no body", await race(call(node.url, "POST", "/v1/streams/st_000000000000/suggest-map", { key: ws.apiKey })))
  show("no ct body", await race(call(node.url, "POST", "/admin/workspaces", { key: node.adminToken, raw: '{"name":"x"}' })))
} finally {
  await node.stop(); await db.drop()
}
