import { describe, expect, it } from "vitest"
import { isDeprecatedRoute } from "../../src/domain/Versioning.js"

describe("deprecated routes (SPEC Versioning 1)", () => {
  it.each([
    ["/v1/connections", true],
    ["/v1/connections/mode", true],
    ["/v1/channels/01J0000000000000000000000A/credentials", true],
    ["/v1/channels/01J0000000000000000000000A/credentials/delete", true],
    ["/v1/connector/env", true],
    ["/v1/connector/script/python", true],
    ["/v1/channels", false],
    ["/v1/channels/01J0000000000000000000000A", false],
    ["/v1/deliveries", false],
    ["/v1/streams", false]
  ])("%s → %s", (path, deprecated) => {
    expect(isDeprecatedRoute(path)).toBe(deprecated)
  })
})
