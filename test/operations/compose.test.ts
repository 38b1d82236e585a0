import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

// No Docker engine here: the compose file is read as text (`docker compose config` checks it where a client is).
const compose = fs.readFileSync(path.resolve(import.meta.dirname, "../../docker-compose.yml"), "utf8")

describe("docker-compose.yml", () => {
  it("ships no usable admin token: ADMIN_TOKEN must come from the operator", () => {
    const lines = compose.split("\n").filter((line) => /^\s*ADMIN_TOKEN\s*:/.test(line))
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) expect(line).toMatch(/ADMIN_TOKEN:\s*"?\$\{ADMIN_TOKEN:\?[^}]+\}"?\s*$/)
    expect(compose).not.toMatch(/\$\{ADMIN_TOKEN:-/)
  })

  it("publishes no cluster runner port", () => {
    const runnerPorts = [...compose.matchAll(/RUNNER_PORT:\s*"?(\d+)"?/g)].map((m) => m[1]!)
    expect(runnerPorts).toContain("34431")
    const published = [...compose.matchAll(/^\s*-\s*"?(?:[\d.]+:)?(\d+):(\d+)(?:\/\w+)?"?/gm)].map((m) => [m[1], m[2]])
    expect(published.length).toBeGreaterThan(0)
    for (const [host, container] of published) {
      expect(runnerPorts).not.toContain(host)
      expect(runnerPorts).not.toContain(container)
    }
    expect(compose).not.toMatch(/^\s*expose\s*:/m)
  })
})
