import { describe, expect, it } from "vitest"
import { renderKeyframe } from "../../src/drawing/Render.js"
import { DrawFailed } from "../../src/drawing/RenderError.js"
import { pixels, scene } from "./fixtures.js"

const headlineOnly = (locale: string, headline: string) =>
  scene({ width: 320, height: 568, locale, content: { headline } }, "bullets")

/** Pixels close to the (white) text colour: only the headline is white in these scenes. */
const ink = async (png: Buffer) => {
  const { data } = await pixels(png)
  let n = 0
  for (let i = 0; i < data.length; i += 4) if (data[i]! > 200 && data[i + 1]! > 200 && data[i + 2]! > 200) n++
  return n
}

const diff = async (a: Buffer, b: Buffer) => {
  const [x, y] = [await pixels(a), await pixels(b)]
  let n = 0
  for (let i = 0; i < x.data.length; i += 4) if (Math.abs(x.data[i]! - y.data[i]!) > 40) n++
  return n
}

// Private-use code points have no glyph in any shipped font: they draw as .notdef boxes (tofu).
const tofu = (n: number) => String.fromCodePoint(...Array.from({ length: n }, (_, i) => 0xe000 + i))

describe("renderKeyframe", () => {
  it("draws a PNG of the clip's size", async () => {
    const png = await renderKeyframe(scene(), 29)
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG")
    expect(png.readUInt32BE(16)).toBe(180)
    expect(png.readUInt32BE(20)).toBe(320)
  })

  it.concurrent.each([
    ["ja", "日本の物価上昇が鈍化"],
    ["zh-CN", "中国经济增长放缓了"],
    ["ko", "한국 물가 상승률 둔화"]
  ])("draws %s glyphs, not tofu", async (locale, text) => {
    const real = await renderKeyframe(headlineOnly(locale, text), 29)
    const boxes = await renderKeyframe(headlineOnly(locale, tofu([...text].length)), 29)
    const [inkReal, inkBoxes] = [await ink(real), await ink(boxes)]
    expect(inkReal).toBeGreaterThan(1.5 * inkBoxes)
  })

  it("draws Han characters in the locale's regional forms", async () => {
    const text = "直骨写说"
    const jp = await renderKeyframe(headlineOnly("ja", text), 29)
    const sc = await renderKeyframe(headlineOnly("zh-CN", text), 29)
    expect(await diff(jp, sc)).toBeGreaterThan(50)
  })

  it.concurrent.each([
    ["de", "Größte Übernahme des Jahres"],
    ["ru", "Крупнейшая сделка года"],
    ["el", "Η μεγαλύτερη συμφωνία"]
  ])("draws a %s headline", async (locale, text) => {
    const real = await renderKeyframe(headlineOnly(locale, text), 29)
    const boxes = await renderKeyframe(headlineOnly(locale, tofu([...text].length)), 29)
    expect(await ink(real)).toBeGreaterThan(500)
    expect(await diff(real, boxes)).toBeGreaterThan(500)
  })

  it("reports a drawer crash as a typed failure with its stderr", async () => {
    const bad = scene({ brand: { headingFontPath: "/nonexistent/font.ttf" } })
    const error = await renderKeyframe(bad, 0).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DrawFailed)
    expect((error as DrawFailed).stage).toBe("draw")
    expect((error as DrawFailed).stderrTail).toContain("font")
  })
})

describe("drawer entry points", () => {
  it("runs from the TypeScript source through the tsx loader (used when bundling is unavailable)", async () => {
    const { spawn } = await import("node:child_process")
    const { createRequire } = await import("node:module")
    const { fileURLToPath, pathToFileURL } = await import("node:url")
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href
    const drawer = fileURLToPath(new URL("../../src/drawing/drawer.ts", import.meta.url))
    const args = ["--import", tsx, drawer, "keyframe", "0"]
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] })
    const chunks: Array<Buffer> = []
    child.stdout.on("data", (c: Buffer) => chunks.push(c))
    child.stdin.end(JSON.stringify(scene()))
    const code = await new Promise((resolve) => child.on("close", resolve))
    expect(code).toBe(0)
    expect(Buffer.concat(chunks).subarray(1, 4).toString("latin1")).toBe("PNG")
  })
})
