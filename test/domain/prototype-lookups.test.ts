import { describe, expect, it } from "vitest"
import { localized } from "../../src/brands/BrandLookMap.js"
import { requirementFor } from "../../src/domain/Permissions.js"
import { canDraw, scriptOf } from "../../src/drawing/Locales.js"

// Lookups by request text in tables of the service: a name of Object.prototype is no entry of theirs.
const NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]

describe("lookups by names of Object.prototype", () => {
  it("no locale of that name can be drawn", () => {
    for (const name of NAMES) {
      expect(scriptOf(name)).toBeUndefined()
      expect(canDraw(name)).toBe(false)
    }
    expect(scriptOf("pt-BR")).toBe("latin")
  })

  it("a per-language slot falls back to its default file for such a locale", () => {
    const file = { assetId: "a", url: "media://a", name: "a.png", mimeType: "image/png" }
    for (const name of NAMES) expect(localized({ default: file } as never, name)).toBe(file)
    expect(localized({} as never, "constructor")).toBeNull()
  })

  it("a route segment of that name asks for a permission of that name, never of an object's function", () => {
    for (const name of NAMES) {
      const requirement = requirementFor("GET", `/v1/${name}`)
      expect(requirement).toEqual({ _tag: "Permission", permission: `${name}:read`, public: false })
    }
  })
})
