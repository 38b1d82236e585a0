import { describe, expect, it } from "vitest"
import { call } from "../support/Client.js"
import { useNode } from "../support/Rig.js"

const { node } = useNode({ label: "logs" })

interface LogLine {
  readonly message: unknown
  readonly logLevel: string
  readonly annotations: Record<string, unknown>
}

/** The node's stdout and stderr, as the JSON lines an operator's log shipper reads. */
const logLines = (): Array<LogLine> =>
  node.output().split("\n").flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as LogLine
      return typeof parsed === "object" && parsed !== null && "annotations" in parsed ? [parsed] : []
    } catch {
      return []
    }
  })

const waitForLine = async (message: string, requestId: string) => {
  const deadline = Date.now() + 5000
  for (;;) {
    const found = logLines().find((l) => l.message === message && l.annotations["requestId"] === requestId)
    if (found !== undefined || Date.now() > deadline) return found
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("structured logs", () => {
  it("are JSON lines that carry the request id, and audit admin actions without the key", async () => {
    const admin = { key: node.adminToken }
    const first = "01KAP3Y4X9RMB2Z6V7N8Q0W1E5"
    const second = "01KAP3Y4X9RMB2Z6V7N8Q0W1E6"
    const created = await call(node.url, "POST", "/admin/workspaces", {
      ...admin,
      body: { name: "Logged" },
      headers: { "x-request-id": first }
    })
    expect(created.status).toBe(201)
    const accountId = created.body.accountId as string
    const key = await call(node.url, "POST", `/admin/workspaces/${accountId}/keys`, {
      ...admin,
      body: { scopes: ["*"] },
      headers: { "x-request-id": second }
    })
    expect(key.headers.get("x-request-id")).toBe(second)

    const workspaceLine = await waitForLine("Workspace created", first)
    expect(workspaceLine?.logLevel).toBe("INFO")
    expect(workspaceLine?.annotations["accountId"]).toBe(accountId)
    const keyLine = await waitForLine("API key created", second)
    expect(keyLine?.annotations).toMatchObject({ accountId, keyId: key.body.keyId, requestId: second })
    expect(node.output()).not.toContain(key.body.apiKey as string)
  })
})
