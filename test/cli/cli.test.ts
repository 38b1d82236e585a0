import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { client } from "../support/Client.js"
import { useNode } from "../support/Rig.js"

const root = path.resolve(import.meta.dirname, "../..")

interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs `bin/clipwright.js` the way an operator does, with only the environment given (no ADMIN_TOKEN leaks in). */
const cli = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<CliResult>((resolve) => {
    const base = { ...process.env as Record<string, string> }
    for (const name of ["ADMIN_TOKEN", "CLIPWRIGHT_URL", "DATA_DIR", "PORT"]) delete base[name]
    const options = { cwd: root, env: { ...base, ...env } }
    execFile(process.execPath, ["bin/clipwright.js", ...args], options, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1
      resolve({ code, stdout, stderr })
    })
  })

const json = (text: string) => JSON.parse(text) as any

describe("npx clipwright admin", () => {
  let env: Record<string, string>

  // Webhook addresses must resolve; a loopback one needs ALLOW_PRIVATE_URLS (CONTRACT.md).
  const { node } = useNode({ label: "cli", env: { ALLOW_PRIVATE_URLS: "true" } })

  beforeAll(() => {
    env = { CLIPWRIGHT_URL: node.url, ADMIN_TOKEN: node.adminToken }
  })

  it("creates a workspace and a key, and the key works until it is revoked", async () => {
    const workspace = await cli(["admin", "workspace", "create", "--name", "CLI workspace"], env)
    expect(workspace.code, workspace.stderr).toBe(0)
    const { accountId, accountName } = json(workspace.stdout)
    expect(accountName).toBe("CLI workspace")

    const created = await cli(["admin", "key", "create", accountId, "--scopes", "streams:read,streams:write"], env)
    expect(created.code, created.stderr).toBe(0)
    const key = json(created.stdout)
    expect(key.scopes).toEqual(["streams:read", "streams:write"])
    expect(created.stdout).toContain("\n  ") // pretty-printed

    const api = client(node, key.apiKey)
    const before = await api.get("/v1/whoami")
    expect(before.status).toBe(200)
    expect(before.body).toMatchObject({ accountId, accountName: "CLI workspace", kind: "apikey" })

    const revoked = await cli(["admin", "key", "revoke", accountId, key.keyId], env)
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(json(revoked.stdout)).toEqual({ revoked: true })

    const after = await api.get("/v1/whoami")
    expect(after.status).toBe(401)
    expect(after.body.error.code).toBe("unauthenticated")
  })

  it("takes `*` for every permission", async () => {
    const { accountId } = json((await cli(["admin", "workspace", "create", "--name", "Star"], env)).stdout)
    const created = await cli(["admin", "key", "create", accountId, "--scopes", "*", "--name", "all"], env)
    expect(created.code, created.stderr).toBe(0)
    expect(json(created.stdout).scopes).toEqual(["*"])
  })

  it("sets limits and prints the quota", async () => {
    const { accountId } = json((await cli(["admin", "workspace", "create", "--name", "Limits"], env)).stdout)
    const limits = await cli(
      ["admin", "limits", "set", accountId, "--render-allowance", "42", "--storage-mb", "2048"],
      env
    )
    expect(limits.code, limits.stderr).toBe(0)
    const { quota } = json(limits.stdout)
    expect(quota).toMatchObject({ allowance: 42, used: 0, remaining: 42, overridden: true })
    expect(typeof quota.periodStart).toBe("string")
  })

  it("adds a member, sets the webhook and issues a platform key", async () => {
    const { accountId } = json((await cli(["admin", "workspace", "create", "--name", "Rest"], env)).stdout)
    const member = await cli(
      ["admin", "member", "add", accountId, "--email", "ops@example.test", "--role", "operations"],
      env
    )
    expect(member.code, member.stderr).toBe(0)
    expect(json(member.stdout).member).toMatchObject({ email: "ops@example.test", role: "operations" })

    // Within `webhook set`, --url is the webhook address; the node comes from CLIPWRIGHT_URL (or --node-url).
    const webhook = await cli(["admin", "webhook", "set", accountId, "--url", "http://127.0.0.1:9/hooks/in"], env)
    expect(webhook.code, webhook.stderr).toBe(0)
    expect(json(webhook.stdout)).toMatchObject({ url: "http://127.0.0.1:9/hooks/in" })
    expect(json(webhook.stdout).secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)

    const platform = await cli(["admin", "platform-key", "create", "--name", "shipper"], env)
    expect(platform.code, platform.stderr).toBe(0)
    expect(Object.keys(json(platform.stdout)).sort()).toEqual(["apiKey", "keyId"])
  })

  it("lists platform keys and revokes one: the key is refused from then on", async () => {
    const { apiKey, keyId } = json((await cli(["admin", "platform-key", "create", "--name", "to revoke"], env)).stdout)
    expect((await client(node, apiKey).get("/v1/broadcasts")).status).toBe(200)
    const listed = await cli(["admin", "platform-key", "list"], env)
    expect(listed.code, listed.stderr).toBe(0)
    expect(json(listed.stdout).keys).toContainEqual({
      keyId,
      name: "to revoke",
      createdAt: expect.any(String),
      revokedAt: null
    })
    expect(listed.stdout).not.toContain(apiKey)

    const revoked = await cli(["admin", "platform-key", "revoke", keyId], env)
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(json(revoked.stdout)).toEqual({ revoked: true })
    expect((await client(node, apiKey).get("/v1/broadcasts")).status).toBe(401)
    const after = json((await cli(["admin", "platform-key", "list"], env)).stdout).keys
    expect(after.find((k: { keyId: string }) => k.keyId === keyId).revokedAt).toEqual(expect.any(String))

    const unknown = await cli(["admin", "platform-key", "revoke", "01ARZ3NDEKTSV4RRFFQ69G5FAV"], env)
    expect(unknown.code).toBe(1)
    expect(json(unknown.stderr).error.code).toBe("not_found")
  })

  it("reads the node address from --url and the token from DATA_DIR/admin-token", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-cli-"))
    fs.writeFileSync(path.join(dataDir, "admin-token"), `${node.adminToken}\n`)
    const result = await cli(
      ["--url", node.url, "admin", "workspace", "create", "--name", "From file"],
      { DATA_DIR: dataDir }
    )
    expect(result.code, result.stderr).toBe(0)
    expect(json(result.stdout).accountName).toBe("From file")
    const health = await cli(["admin", "health", "--url", node.url])
    expect(health.code, health.stderr).toBe(0)
    expect(json(health.stdout)).toEqual({ status: "ok" })
  })

  it("exits 1 with the unauthenticated envelope on stderr for a wrong token", async () => {
    const result = await cli(["admin", "workspace", "create", "--name", "Nope", "--token", "wrong-token"], env)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe("")
    const envelope = json(result.stderr)
    expect(envelope.error.code).toBe("unauthenticated")
    expect(envelope.error.requestId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
  })

  it("exits 1 with the envelope for an error answer", async () => {
    const result = await cli(["admin", "key", "revoke", "01NOSUCHACCOUNT0000000000", "01NOSUCHKEY000000000000000"], env)
    expect(result.code).toBe(1)
    expect(json(result.stderr).error.code).toBe("not_found")
  })

  it("exits 1 when the node does not answer", async () => {
    const result = await cli(["admin", "health", "--url", "http://127.0.0.1:9"])
    expect(result.code).toBe(1)
    expect(json(result.stderr).error.code).toBe("unreachable")
  })

  it("exits 2 with a usage text on a usage error, without calling the node", async () => {
    const missing = await cli(["admin", "key", "create", "--scopes", "*"], env)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain("Usage: clipwright admin key create <accountId>")

    const unknown = await cli(["admin", "workspace", "create", "--name", "X", "--bogus"], env)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("Usage:")

    const notNumber = await cli(["admin", "limits", "set", "acc", "--seats", "many"], env)
    expect(notNumber.code).toBe(2)
    expect(notNumber.stderr).toContain("--seats")

    const badRole = await cli(["admin", "member", "add", "acc", "--email", "a@b.c", "--role", "king"], env)
    expect(badRole.code).toBe(2)

    const nothing = await cli([], env)
    expect(nothing.code).toBe(2)
  })

  it("prints help with --help and exits 0", async () => {
    const help = await cli(["admin", "--help"])
    expect(help.code).toBe(0)
    for (const words of ["workspace create", "key create", "key revoke", "webhook set", "member add", "limits set"]) {
      expect(help.stdout).toContain(`clipwright admin ${words}`)
    }
    expect(help.stdout).toContain("platform-key create")
    expect(help.stdout).toContain("platform-key list")
    expect(help.stdout).toContain("platform-key revoke <keyId>")
    const one = await cli(["admin", "limits", "set", "--help"])
    expect(one.code).toBe(0)
    expect(one.stdout).toContain("--render-allowance N")
  })
})
