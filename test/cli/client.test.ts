import { describe, expect, it } from "vitest"
import { type CliIo, run } from "../../src/cli/Cli.js"

interface Sent {
  readonly method: string
  readonly url: string
  readonly headers: Record<string, string>
  readonly body: string | undefined
}

/** Runs the CLI against a fake fetch that answers `status` and `body`, keeping what was sent. */
const cli = async (argv: ReadonlyArray<string>, answer = { status: 200, body: "{}" }) => {
  const sent: Array<Sent> = []
  let stdout = ""
  let stderr = ""
  const fetch: typeof globalThis.fetch = async (input, init) => {
    sent.push({
      method: init?.method ?? "GET",
      url: String(input),
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: init?.body == null ? undefined : await new Response(init.body).text()
    })
    return new Response(answer.body === "" ? null : answer.body, {
      status: answer.status,
      headers: { "content-type": "application/json" }
    })
  }
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: { CLIPWRIGHT_URL: "http://node.test:8080/", ADMIN_TOKEN: "tok" },
    cwd: "/nonexistent",
    fetch
  }
  const code = await run(argv, io)
  return { code, stdout, stderr, sent }
}

const ok = (body: unknown, status = 200) => ({ status, body: JSON.stringify(body) })

describe("the CLI's client follows the contract", () => {
  it.each([
    [["admin", "health"], "GET", "/health", undefined],
    [["admin", "workspace", "create", "--name", "W", "--owner-email", "o@x.y"], "POST", "/admin/workspaces", {
      name: "W",
      ownerEmail: "o@x.y"
    }],
    [["admin", "key", "create", "acc", "--scopes", "a:b,c:d", "--name", "k"], "POST", "/admin/workspaces/acc/keys", {
      scopes: ["a:b", "c:d"],
      name: "k"
    }],
    [["admin", "key", "revoke", "a/b", "c?d"], "POST", "/admin/workspaces/a%2Fb/keys/c%3Fd/revoke", undefined],
    [["admin", "webhook", "set", "acc", "--url", "https://h.test/in"], "PUT", "/admin/workspaces/acc/webhook", {
      url: "https://h.test/in"
    }],
    [
      ["admin", "member", "add", "acc", "--email", "m@x.y", "--role", "member"],
      "POST",
      "/admin/workspaces/acc/members",
      { email: "m@x.y", role: "member" }
    ],
    [["admin", "limits", "set", "acc", "--seats", "3"], "PUT", "/admin/workspaces/acc/limits", { seats: 3 }],
    [["admin", "limits", "set", "acc"], "PUT", "/admin/workspaces/acc/limits", {}],
    [
      ["admin", "entitlements", "set", "acc", "--sources", "markets, news"],
      "PUT",
      "/admin/workspaces/acc/entitlements",
      {
        sources: ["markets", "news"]
      }
    ],
    [["admin", "entitlements", "set", "acc", "--sources", ""], "PUT", "/admin/workspaces/acc/entitlements", {
      sources: []
    }],
    [["admin", "platform-key", "create"], "POST", "/admin/platform-keys", {}]
  ])("%j → %s %s", async (argv, method, path, body) => {
    const { sent } = await cli(argv, { status: 599, body: "{}" })
    expect(sent).toHaveLength(1)
    expect(sent[0]?.method).toBe(method)
    expect(sent[0]?.url).toBe(`http://node.test:8080${path}`)
    expect(sent[0]?.body === undefined ? undefined : JSON.parse(sent[0].body)).toEqual(body)
    expect(sent[0]?.headers["accept"]).toBe("application/json")
    expect(sent[0]?.headers["authorization"]).toBe(argv[1] === "health" ? undefined : "Bearer tok")
    expect(sent[0]?.headers["traceparent"]).toBeUndefined()
  })

  it("leaves the body's checks to the node, which answers its own envelope", async () => {
    const { sent } = await cli(["admin", "limits", "set", "acc", "--seats", "3000000000"])
    expect(JSON.parse(sent[0]?.body ?? "")).toEqual({ seats: 3000000000 })
    const empty = await cli(["admin", "workspace", "create", "--name", ""])
    expect(JSON.parse(empty.sent[0]?.body ?? "")).toEqual({ name: "" })
  })
})

describe("the CLI prints the node's answer as sent", () => {
  it("prints a success body whole, fields the contract does not name included", async () => {
    const body = { accountId: "A", accountName: "N", extra: { nested: [1, 2] } }
    const result = await cli(["admin", "workspace", "create", "--name", "N"], ok(body, 201))
    expect(result.code).toBe(0)
    expect(result.stderr).toBe("")
    expect(result.stdout).toBe(`${JSON.stringify(body, null, 2)}\n`)
  })

  it.each([400, 401, 404, 409, 503])("prints the %i envelope on stderr and exits 1", async (status) => {
    const envelope = {
      error: {
        type: "http://node.test:8080/errors/x",
        code: "some_code",
        message: "what went wrong",
        requestId: "01J0000000000000000000000",
        details: [{ path: "name", message: "too short" }],
        unknownToTheContract: true
      }
    }
    const result = await cli(["admin", "key", "create", "acc", "--scopes", "*"], ok(envelope, status))
    expect(result.code).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toBe(`${JSON.stringify(envelope, null, 2)}\n`)
  })

  it("wraps an error answer that is not JSON", async () => {
    const result = await cli(["admin", "health"], { status: 502, body: "<html>bad gateway</html>" })
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stderr).error).toEqual({
      code: "http_error",
      message: "HTTP 502 from http://node.test:8080/health",
      status: 502,
      body: "<html>bad gateway</html>"
    })
  })

  it("refuses a success answer that does not fit the contract", async () => {
    const result = await cli(["admin", "health"], ok({ status: "weird" }))
    expect(result.code).toBe(1)
    expect(result.stdout).toBe("")
    expect(JSON.parse(result.stderr).error.code).toBe("unexpected_answer")
  })
})
