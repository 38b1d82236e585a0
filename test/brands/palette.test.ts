import { describe, expect, it } from "vitest"
import { contrastRatio, relativeLuminance, roundRatio } from "../../src/brands/Contrast.js"
import { hexToOklch, oklchToHex } from "../../src/brands/Oklch.js"
import { derivePalette, PALETTE_COLOR_KEYS, type Stage } from "../../src/brands/Palette.js"

const HEX = /^#[0-9a-f]{6}$/
const BRANDS = [
  ["#1f6feb", "#e11d48", "#7c3aed", "#00ff00", "#777777"],
  ["#ffff00", "#ffffff", "#fafaf0", "#000000", "#0a0a14"]
].flat()
const STAGES: ReadonlyArray<Stage> = ["dark", "light"]

describe("contrast", () => {
  it("answers the WCAG 2.x ratio of known pairs", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBe(21)
    expect(contrastRatio("#ffffff", "#000000")).toBe(21)
    expect(roundRatio(contrastRatio("#777777", "#ffffff"))).toBe(4.48)
    expect(roundRatio(contrastRatio("#767676", "#ffffff"))).toBe(4.54)
    expect(contrastRatio("#123456", "#123456")).toBe(1)
    expect(roundRatio(contrastRatio("#0000ff", "#ffffff"))).toBe(8.59)
    expect(roundRatio(contrastRatio("#f00", "#fff"))).toBe(4)
  })

  it("uses relative luminance", () => {
    expect(relativeLuminance("#ffffff")).toBe(1)
    expect(relativeLuminance("#000000")).toBe(0)
    expect(relativeLuminance("#808080")).toBeCloseTo(0.2159, 4)
  })

  it("round-trips colours through OKLCH", () => {
    for (const hex of ["#1f6feb", "#e11d48", "#ffff00", "#000000", "#ffffff", "#777777"]) {
      expect(oklchToHex(hexToOklch(hex))).toBe(hex)
    }
  })
})

describe("palette", () => {
  it("answers every key, each a hex colour, and a series of at least six distinct colours", () => {
    const { palette } = derivePalette({ brand: "#1F6FEB", stage: "dark", direction: "green-up" })
    for (const key of PALETTE_COLOR_KEYS) expect(palette[key], key).toMatch(HEX)
    expect(Object.keys(palette).sort()).toEqual([...PALETTE_COLOR_KEYS, "series"].sort())
    expect(palette.brand).toBe("#1f6feb")
    expect(palette.series.length).toBeGreaterThanOrEqual(6)
    expect(new Set(palette.series).size).toBe(palette.series.length)
    for (const colour of palette.series) expect(colour).toMatch(HEX)
  })

  it("answers the five checks with their targets", () => {
    const { checks } = derivePalette({ brand: "#1f6feb", stage: "dark", direction: "green-up" })
    expect(checks.map((c) => [c.label, c.target])).toEqual([
      ["text on surface", 4.5],
      ["muted text on surface", 4.5],
      ["text on brand", 4.5],
      ["positive on surface", 3],
      ["negative on surface", 3]
    ])
  })

  for (const stage of STAGES) {
    it(`meets every target on a ${stage} stage, for light, dark and saturated brands`, () => {
      for (const brand of BRANDS) {
        const { checks, palette } = derivePalette({ brand, stage, direction: "green-up" })
        for (const c of checks) expect(c.ok, `${brand} ${stage} ${c.label} ${c.ratio}`).toBe(true)
        expect(contrastRatio(palette.textBody, palette.surface)).toBeGreaterThanOrEqual(4.5)
        expect(contrastRatio(palette.textMuted, palette.surface)).toBeGreaterThanOrEqual(4.5)
        expect(contrastRatio(palette.textStrong, palette.surface)).toBeGreaterThanOrEqual(7)
        expect(contrastRatio(palette.onBrand, palette.brand)).toBeGreaterThanOrEqual(4.5)
        expect(new Set(palette.series).size).toBeGreaterThanOrEqual(6)
        const ratio = checks[0]!.ratio
        expect(ratio).toBe(roundRatio(contrastRatio(palette.textBody, palette.surface)))
      }
    })
  }

  it("puts dark surfaces under a dark stage and light ones under a light stage", () => {
    const dark = derivePalette({ brand: "#e11d48", stage: "dark", direction: "green-up" }).palette
    const light = derivePalette({ brand: "#e11d48", stage: "light", direction: "green-up" }).palette
    expect(relativeLuminance(dark.surface)).toBeLessThan(0.05)
    expect(relativeLuminance(light.surface)).toBeGreaterThan(0.8)
  })

  it("reads the direction: green up by default, red up swaps, custom takes the given colours", () => {
    const hue = (hex: string) => hexToOklch(hex).h
    const green = derivePalette({ brand: "#1f6feb", stage: "dark", direction: "green-up" }).palette
    expect(hue(green.positive)).toBeGreaterThan(100)
    expect(hue(green.positive)).toBeLessThan(180)
    const red = derivePalette({ brand: "#1f6feb", stage: "dark", direction: "red-up" }).palette
    expect(red.positive).toBe(green.negative)
    expect(red.negative).toBe(green.positive)
    const custom = derivePalette({
      brand: "#1f6feb",
      stage: "dark",
      direction: "custom",
      positive: "#00AAFF",
      negative: "#FF8800"
    }).palette
    expect([custom.positive, custom.negative]).toEqual(["#00aaff", "#ff8800"])
  })

  it("takes a background, a second colour and overrides, and derives the rest against them", () => {
    const { checks, palette } = derivePalette({
      brand: "#1f6feb",
      stage: "light",
      direction: "green-up",
      background: "#fff8e7",
      second: "#ff6600",
      overrides: { surface: "#ffffff", neutral: "#123456" }
    })
    expect(palette.stage).toBe("#fff8e7")
    expect(palette.surface).toBe("#ffffff")
    expect(palette.brandSecond).toBe("#ff6600")
    expect(palette.neutral).toBe("#123456")
    expect(checks.every((c) => c.ok)).toBe(true)
  })

  it("still finds readable text on a mid-grey background", () => {
    const { checks } = derivePalette({ brand: "#1f6feb", stage: "dark", direction: "green-up", background: "#808080" })
    expect(checks.every((c) => c.ok)).toBe(true)
  })
})
