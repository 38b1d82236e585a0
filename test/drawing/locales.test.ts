import { describe, expect, it } from "vitest"
import { canDraw, scriptOf, supportedLocales } from "../../src/drawing/Locales.js"

describe("supported locales", () => {
  it("draws Latin, Cyrillic and Greek languages and the four CJK locales", () => {
    const drawn = ["en", "de", "fr", "pl", "vi", "tr", "ru", "uk", "bg", "el", "pt-BR", "zh-CN", "zh-TW", "ja", "ko"]
    for (const l of drawn) {
      expect(canDraw(l), l).toBe(true)
    }
    expect(supportedLocales).toContain("zh-TW")
    expect(supportedLocales).toContain("el")
  })

  it("answers false for scripts no shipped font covers", () => {
    const notDrawn = ["ar", "he", "hi", "th", "fa", "ur", "bn", "ka", "hy", "am", "xx", ""]
    for (const l of notDrawn) expect(canDraw(l), l).toBe(false)
    expect(supportedLocales).not.toContain("ar")
  })

  it("picks the regional Han forms by locale", () => {
    expect(scriptOf("zh-CN")).toBe("cjk-sc")
    expect(scriptOf("zh-TW")).toBe("cjk-tc")
    expect(scriptOf("zh-hk")).toBe("cjk-tc")
    expect(scriptOf("ja")).toBe("cjk-jp")
    expect(scriptOf("ko-KR")).toBe("cjk-kr")
    expect(scriptOf("de-AT")).toBe("latin")
  })
})
