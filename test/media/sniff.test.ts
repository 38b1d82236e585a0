import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { dimensionsOf, fitsPixelLimit, readBytes } from "../../src/media/Dimensions.js"
import { isSvg, sniff, withExtension } from "../../src/media/Sniff.js"
import { gif, jpeg, jpegWithBigHeader, mp3, mp4, png, svg, ttf, wav, webp } from "../support/MediaFiles.js"

const sizeOf = (mimeType: string, bytes: Uint8Array) => dimensionsOf(mimeType, readBytes(bytes))

describe("sniff", () => {
  it("reads the type from the bytes, whatever the name says", () => {
    expect(sniff(png(4, 4), "photo.jpg")?.mimeType).toBe("image/png")
    expect(sniff(jpeg(4, 4), "x.png")?.mimeType).toBe("image/jpeg")
    expect(sniff(webp(4, 4), "x")?.mimeType).toBe("image/webp")
    expect(sniff(gif(4, 4), "x")?.mimeType).toBe("image/gif")
    expect(sniff(mp4(), "x.mov")).toMatchObject({ kind: "Video", mimeType: "video/mp4" })
    expect(sniff(mp3(), "x")).toMatchObject({ kind: "Audio", mimeType: "audio/mpeg" })
    expect(sniff(new Uint8Array([0xff, 0xfb, 0x90, 0x64, 0, 0]), "x")?.mimeType).toBe("audio/mpeg")
    expect(sniff(wav(), "x")).toMatchObject({ kind: "Audio", mimeType: "audio/wav" })
  })

  it("recognises SVG after a prolog, comments, a doctype and whitespace", () => {
    expect(sniff(svg(), "x")?.mimeType).toBe("image/svg+xml")
    const prolog = "\uFEFF<?xml version=\"1.0\"?>\n<!-- made by hand -->\n" +
      "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\">\n  "
    expect(isSvg(svg(prolog))).toBe(true)
    expect(isSvg(new TextEncoder().encode("<html><svg></svg></html>"))).toBe(false)
    expect(isSvg(new TextEncoder().encode("<svgfoo>"))).toBe(false)
  })

  it("reads SVG openings in one pass: repeated comments, cut-off prologs and doctypes", () => {
    const encode = (text: string) => new TextEncoder().encode(text)
    expect(isSvg(encode("<!---->".repeat(40) + "x"))).toBe(false)
    expect(isSvg(encode("<!---->".repeat(10_000) + "<svg>"))).toBe(false)
    expect(isSvg(encode("<!---->".repeat(40) + "<svg/>"))).toBe(true)
    expect(isSvg(encode("<?XML version='1.0'?><!-- a --><!doctype SVG><!-- b -->\n<SVG\twidth='1'>"))).toBe(true)
    expect(isSvg(encode("<?xml version='1.0'><svg>"))).toBe(false)
    expect(isSvg(encode("<!--><svg>"))).toBe(false)
    expect(isSvg(encode("<!DOCTYPEsvg><svg>"))).toBe(false)
    expect(isSvg(encode("<!DOCTYPE html><svg>"))).toBe(false)
    expect(isSvg(encode("<svg"))).toBe(false)
  })

  it("recognises fonts by extension when the bytes hold a font container", () => {
    expect(sniff(ttf(), "Brand.TTF")).toMatchObject({ kind: "Font", mimeType: "font/ttf" })
    expect(sniff(ttf(), "brand.otf")?.mimeType).toBe("font/otf")
    expect(sniff(new TextEncoder().encode("wOF2xxxxxxxx"), "a.woff2")?.mimeType).toBe("font/woff2")
    expect(sniff(new TextEncoder().encode("wOFFxxxxxxxx"), "a.woff")?.mimeType).toBe("font/woff")
    expect(sniff(ttf(), "brand.bin")).toBeUndefined()
    expect(sniff(new TextEncoder().encode("hello world"), "fake.ttf")).toBeUndefined()
  })

  it("refuses what it does not know, and ISO files that are not MP4 video", () => {
    expect(sniff(new TextEncoder().encode("{\"json\": true}"), "x.png")).toBeUndefined()
    expect(sniff(new Uint8Array(0), "x")).toBeUndefined()
    expect(sniff(mp4(64, "heic"), "x.mp4")).toBeUndefined()
  })

  it("swaps the extension for the sniffed type's, keeping one that fits", () => {
    const jpg = sniff(jpeg(2, 2), "x")!
    expect(withExtension("logo.png", jpg, "new.jpeg")).toBe("logo.jpeg")
    expect(withExtension("logo.png", jpg, "new.bin")).toBe("logo.jpg")
    expect(withExtension("logo", sniff(svg(), "x")!, "a.svg")).toBe("logo.svg")
  })
})

describe("dimensions", () => {
  it.effect("reads width and height from PNG, JPEG, WebP and GIF headers", () =>
    Effect.gen(function*() {
      expect(yield* sizeOf("image/png", png(2049, 10))).toEqual({ width: 2049, height: 10 })
      expect(yield* sizeOf("image/jpeg", jpeg(300, 17))).toEqual({ width: 300, height: 17 })
      expect(yield* sizeOf("image/webp", webp(640, 480))).toEqual({ width: 640, height: 480 })
      expect(yield* sizeOf("image/gif", gif(33, 44))).toEqual({ width: 33, height: 44 })
    }))

  it.effect("walks JPEG segments far past the first bytes", () =>
    Effect.gen(function*() {
      expect(yield* sizeOf("image/jpeg", jpegWithBigHeader(120, 80, 3))).toEqual({ width: 120, height: 80 })
    }))

  it.effect("reads VP8L and VP8X WebP headers", () =>
    Effect.gen(function*() {
      const vp8l = new Uint8Array(30)
      vp8l.set([..."RIFF"].map((c) => c.charCodeAt(0)))
      vp8l.set([..."WEBPVP8L"].map((c) => c.charCodeAt(0)), 8)
      vp8l[20] = 0x2f
      const bits = (99 - 1) | ((77 - 1) << 14)
      vp8l.set([bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff], 21)
      expect(yield* sizeOf("image/webp", vp8l)).toEqual({ width: 99, height: 77 })
      const vp8x = new Uint8Array(30)
      vp8x.set([..."RIFF"].map((c) => c.charCodeAt(0)))
      vp8x.set([..."WEBPVP8X"].map((c) => c.charCodeAt(0)), 8)
      vp8x.set([4999 & 0xff, (4999 >> 8) & 0xff, 0, 9, 0, 0], 24)
      expect(yield* sizeOf("image/webp", vp8x)).toEqual({ width: 5000, height: 10 })
    }))

  it.effect("gives nothing for a cut or broken header", () =>
    Effect.gen(function*() {
      expect(yield* sizeOf("image/png", png(10, 10).subarray(0, 20))).toBeUndefined()
      expect(yield* sizeOf("image/jpeg", jpeg(10, 10).subarray(0, 40))).toBeUndefined()
      expect(yield* sizeOf("image/gif", gif(10, 10).subarray(0, 8))).toBeUndefined()
      expect(yield* sizeOf("image/webp", webp(10, 10).subarray(0, 16))).toBeUndefined()
      const zero = png(10, 10)
      zero.set([0, 0, 0, 0], 16)
      expect(yield* sizeOf("image/png", zero)).toBeUndefined()
      expect(yield* sizeOf("image/svg+xml", svg())).toBeUndefined()
    }))

  it.effect("holds pictures to 2048 by 2048", () =>
    Effect.gen(function*() {
      expect(fitsPixelLimit({ width: 2048, height: 2048 })).toBe(true)
      expect(fitsPixelLimit({ width: 2049, height: 10 })).toBe(false)
      expect(fitsPixelLimit({ width: 10, height: 2049 })).toBe(false)
    }))
})
