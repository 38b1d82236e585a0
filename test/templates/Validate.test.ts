import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { describeBuild } from "../../src/templates/Describe.js"
import type { ResolvedBuild } from "../../src/templates/format/Template.js"
import { isLocale, locales } from "../../src/templates/Locales.js"
import { resolveBuild } from "../../src/templates/TemplateRegistry.js"
import { decimalPlaces, jsonPointer, validateContent } from "../../src/templates/Validate.js"
import type { ValidationDetail } from "../../src/templates/Validate.js"
import { checkSchema } from "./MiniJsonSchema.js"

const resolve = (variant: string, version: string): ResolvedBuild =>
  Either.getOrThrow(resolveBuild("tpl_3a7c91e04b5d", { variant, version }))

const current = resolve("standard", "1.1.0")
const older = resolve("standard", "1.0.0")

const valid = () => ({
  clipData: {
    headline: "Oil jumps",
    figures: [
      { label: "Brent", value: 84.12, unit: "USD", direction: "up" },
      { label: "WTI", value: 80.0001 }
    ],
    bullets: ["Supply cut"],
    images: [{ url: "media://rig.jpg", alt: "Oil rig" }]
  },
  metaData: { title: "Oil jumps", hashtags: ["oil"] },
  locales: { de: { clipData: { headline: "Öl steigt" } } }
})

const check = (content: unknown, resolved = current) => {
  const details = validateContent(resolved.build, content)
  const fromSchema = checkSchema(describeBuild(resolved).jsonSchema, content)
  // The JSON Schema and the validator come from the same fields, so they must fail in the same places.
  expect(details.map((detail) => [detail.path, detail.rule]).sort())
    .toEqual(fromSchema.map((error) => [error.path, error.keyword]).sort())
  return details
}

const one = (content: unknown, resolved = current): ValidationDetail => {
  const details = check(content, resolved)
  expect(details).toHaveLength(1)
  return details[0]!
}

const with_ = (edit: (content: ReturnType<typeof valid>) => void) => {
  const content = valid()
  edit(content)
  return content
}

describe("validateContent", () => {
  it("accepts valid content", () => {
    expect(check(valid())).toEqual([])
  })

  it("refuses more than four decimals with the item's pointer", () => {
    const detail = one(with_((c) => (c.clipData.figures[1]!.value = 1.23456)))
    expect(detail).toMatchObject({
      path: "/clipData/figures/1/value",
      rule: "decimals",
      expected: "at most 4 decimal places",
      received: "5 decimal places"
    })
    expect(check(with_((c) => (c.clipData.figures[1]!.value = -12345.6789)))).toEqual([])
  })

  it("requires the headline", () => {
    const content = with_((c) => Reflect.deleteProperty(c.clipData, "headline"))
    expect(one(content)).toMatchObject({
      path: "/clipData/headline",
      rule: "required",
      message: "Headline is required"
    })
    expect(one(with_((c) => (c.clipData.headline = "")))).toMatchObject({
      path: "/clipData/headline",
      rule: "minLength"
    })
    expect(one({ metaData: {} })).toMatchObject({ path: "/clipData", rule: "required" })
  })

  it("counts characters as code points", () => {
    expect(one(with_((c) => (c.clipData.headline = "x".repeat(81))))).toMatchObject({
      path: "/clipData/headline",
      rule: "maxLength",
      expected: "at most 80 characters",
      received: "81 characters"
    })
    expect(check(with_((c) => (c.clipData.headline = "x".repeat(80))))).toEqual([])
    expect(check(with_((c) => (c.clipData.headline = "📈".repeat(80))))).toEqual([])
  })

  it("refuses unknown keys, escaping the pointer", () => {
    expect(one(with_((c) => Object.assign(c.clipData, { "a/b~c": 1 })))).toMatchObject({
      path: "/clipData/a~1b~0c",
      rule: "additionalProperties"
    })
    expect(one({ ...valid(), extra: true })).toMatchObject({ path: "/extra", rule: "additionalProperties" })
  })

  it("refuses web addresses for pictures", () => {
    const detail = one(with_((c) => (c.clipData.images[0]!.url = "https://example.com/rig.jpg")))
    expect(detail).toMatchObject({
      path: "/clipData/images/0/url",
      rule: "pattern",
      expected: "media://<file id or name>"
    })
    expect(detail.message).toContain("web addresses are not fetched")
    expect(one(with_((c) => (c.clipData.images[0]!.url = "media://")))).toMatchObject({ rule: "pattern" })
  })

  it("checks locale copy against the same limits, with every field optional", () => {
    expect(check(with_((c) => (c.locales.de = { clipData: { headline: "y".repeat(80) } })))).toEqual([])
    expect(check(with_((c) => Object.assign(c.locales, { fr: { metaData: { title: "Le pétrole" } } })))).toEqual([])
    expect(one(with_((c) => (c.locales.de.clipData.headline = "y".repeat(81))))).toMatchObject({
      path: "/locales/de/clipData/headline",
      rule: "maxLength"
    })
    const figures = with_((c) => Object.assign(c.locales.de.clipData, { figures: [{ label: "Brent" }] }))
    expect(one(figures)).toMatchObject({ path: "/locales/de/clipData/figures/0/value", rule: "required" })
    expect(one(with_((c) => Object.assign(c.locales.de, { locales: {} })))).toMatchObject({
      path: "/locales/de/locales",
      rule: "additionalProperties"
    })
  })

  it("refuses locale keys that are not locales", () => {
    for (const locale of ["english", "zh-cn", "xx", "pt-PT", ""]) {
      expect(one(with_((c) => Object.assign(c.locales, { [locale]: {} })))).toMatchObject({
        path: jsonPointer(["locales", locale]),
        rule: "locale",
        received: locale
      })
    }
    expect(check(with_((c) => Object.assign(c.locales, { "zh-TW": {}, "pt-BR": {}, ja: {} })))).toEqual([])
  })

  it("checks types, enums and list sizes", () => {
    expect(one(null)).toMatchObject({ path: "", rule: "type", expected: "object", received: "null" })
    expect(one({ clipData: [] })).toMatchObject({ path: "/clipData", rule: "type", received: "array" })
    expect(one(with_((c) => Object.assign(c.clipData.figures[0]!, { value: "84.12" })))).toMatchObject({
      path: "/clipData/figures/0/value",
      rule: "type",
      expected: "number",
      received: "string"
    })
    expect(one(with_((c) => Object.assign(c.clipData.figures[0]!, { direction: "sideways" })))).toMatchObject({
      path: "/clipData/figures/0/direction",
      rule: "enum",
      received: "sideways"
    })
    const seven = Array.from({ length: 7 }, (_, index) => ({ label: `F${index}`, value: index }))
    expect(one(with_((c) => (c.clipData.figures = seven)))).toMatchObject({
      path: "/clipData/figures",
      rule: "maxItems"
    })
    expect(one(with_((c) => (c.clipData.bullets = ["a", "b", "c", "d"])))).toMatchObject({ rule: "maxItems" })
    expect(one(with_((c) => (c.metaData.hashtags = ["#".repeat(61)])))).toMatchObject({
      path: "/metaData/hashtags/0",
      rule: "maxLength"
    })
    expect(one(with_((c) => Object.assign(c, { locales: [] })))).toMatchObject({ path: "/locales", rule: "type" })
  })

  it("reports every problem, in document order", () => {
    const content = with_((c) => {
      c.clipData.headline = "x".repeat(90)
      c.clipData.figures[0]!.value = 0.123456
      c.clipData.images[0]!.url = "http://x"
      Object.assign(c.metaData, { title: 7 })
      Object.assign(c.locales, { klingon: { clipData: { subline: 3 } } })
    })
    expect(check(content).map((detail) => `${detail.path} ${detail.rule}`)).toEqual([
      "/clipData/headline maxLength",
      "/clipData/figures/0/value decimals",
      "/clipData/images/0/url pattern",
      "/metaData/title type",
      "/locales/klingon locale",
      "/locales/klingon/clipData/subline type"
    ])
  })

  it("depends on the build", () => {
    const five = with_((c) => {
      c.clipData.figures = Array.from({ length: 5 }, (_, index) => ({ label: `F${index}`, value: index }))
      Reflect.deleteProperty(c.clipData, "bullets")
    })
    expect(check(five, current)).toEqual([])
    expect(one(five, older)).toMatchObject({ path: "/clipData/figures", rule: "maxItems", expected: "at most 4 items" })
    expect(one(valid(), older)).toMatchObject({ path: "/clipData/bullets", rule: "additionalProperties" })
    const compact = resolve("compact", "1.0.1")
    const long = { clipData: { headline: "Oil jumps", subline: "s".repeat(91) } }
    expect(check(long, current)).toEqual([])
    expect(one(long, compact)).toMatchObject({ path: "/clipData/subline", rule: "maxLength" })
  })
})

describe("locales", () => {
  it("are the 183 ISO 639-1 codes and three regional forms", () => {
    expect(locales).toHaveLength(186)
    expect(new Set(locales).size).toBe(186)
    expect(locales.filter((locale) => !/^[a-z]{2}$/.test(locale))).toEqual(["zh-CN", "zh-TW", "pt-BR"])
    expect(["en", "de", "pt", "zh", "uk", "he"].every(isLocale)).toBe(true)
    expect(["iw", "in", "eng", "EN"].some(isLocale)).toBe(false)
  })
})

describe("decimalPlaces", () => {
  it("reads the places JSON would write", () => {
    expect([1, 1.5, 84.12, 1.2345, 1e-7, 1.5e-5, 1e21, -0.25].map(decimalPlaces)).toEqual([0, 1, 2, 4, 7, 6, 0, 2])
  })
})
