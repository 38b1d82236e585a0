import { describe, expect, it } from "vitest"
import { startRefused } from "../support/Node.js"

/** Settings a node must refuse before it touches anything: one line naming the setting on stderr, exit code 1. */
describe("a node refuses settings it cannot run safely with", () => {
  it("an ADMIN_TOKEN shorter than 24 characters", async () => {
    const { code, stderr } = await startRefused({ env: { ADMIN_TOKEN: "change-me-admin-token" } })
    expect(code).toBe(1)
    expect(stderr).toContain("clipwright cannot start: ADMIN_TOKEN: must be at least 24 characters")
    expect(stderr).not.toMatch(/\n\s+at /)
  })

  it("a RUNNER_LISTEN_HOST that does not resolve, or is not an address of this machine", async () => {
    const databaseUrl = "postgres://postgres@127.0.0.1:5432/never_connected"
    const unknown = await startRefused({ databaseUrl, env: { RUNNER_LISTEN_HOST: "no-such-host.invalid" } })
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain(
      "clipwright cannot start: RUNNER_LISTEN_HOST: \"no-such-host.invalid\" does not resolve"
    )
    // TEST-NET-1 (RFC 5737): never an address of this machine.
    const foreign = await startRefused({ databaseUrl, env: { RUNNER_LISTEN_HOST: "192.0.2.1" } })
    expect(foreign.code).toBe(1)
    expect(foreign.stderr).toContain(
      "clipwright cannot start: RUNNER_LISTEN_HOST: \"192.0.2.1\" is not an address this machine can listen on"
    )
  })
})
