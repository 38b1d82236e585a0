import { createCanvas } from "@napi-rs/canvas"
import * as fs from "node:fs"
import * as path from "node:path"

const paint = (width: number, height: number) => {
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext("2d")
  ctx.fillStyle = "#1f6feb"
  ctx.fillRect(0, 0, width, height)
  return canvas
}

export const png = (width: number, height: number) => new Uint8Array(paint(width, height).encodeSync("png"))
export const jpeg = (width: number, height: number) => new Uint8Array(paint(width, height).encodeSync("jpeg", 80))
export const webp = (width: number, height: number) => new Uint8Array(paint(width, height).encodeSync("webp", 80))
export const gif = (width: number, height: number) => new Uint8Array(paint(width, height).encodeSync("gif"))

export const svg = (prolog = "") =>
  new TextEncoder().encode(
    `${prolog}<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"><rect width="10" height="10"/></svg>`
  )

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))

/** An ISO media file head (`ftyp` box) padded to `size` bytes: what the library sniffs as MP4. */
export const mp4 = (size = 4096, brand = "isom") => {
  const out = new Uint8Array(size)
  out.set([0, 0, 0, 0x18, ...ascii("ftyp"), ...ascii(brand), 0, 0, 2, 0, ...ascii("isomiso2")])
  return out
}

/** An ID3v2 tag followed by MPEG frames. */
export const mp3 = (size = 4096) => {
  const out = new Uint8Array(size)
  out.set([...ascii("ID3"), 4, 0, 0, 0, 0, 0, 0])
  for (let at = 10; at + 4 <= size; at += 417) out.set([0xff, 0xfb, 0x90, 0x64], at)
  return out
}

/** A RIFF WAVE header and silence. */
export const wav = (size = 4096) => {
  const out = new Uint8Array(size)
  const view = new DataView(out.buffer)
  out.set([...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WAVEfmt ")])
  view.setUint32(4, size - 8, true)
  return out
}

/** A real TrueType font shipped in node_modules. */
export const ttf = () =>
  new Uint8Array(fs.readFileSync(path.resolve(
    import.meta.dirname,
    "../../node_modules/@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"
  )))

/** A JPEG whose SOF sits behind `apps` APP1 segments of ~64 KB (beyond any head kept in memory). */
export const jpegWithBigHeader = (width: number, height: number, apps: number) => {
  const base = jpeg(width, height)
  const segment = new Uint8Array(2 + 65535)
  segment.set([0xff, 0xe1, 0xff, 0xff])
  const out = new Uint8Array(base.length + apps * segment.length)
  out.set(base.subarray(0, 2))
  for (let i = 0; i < apps; i++) out.set(segment, 2 + i * segment.length)
  out.set(base.subarray(2), 2 + apps * segment.length)
  return out
}
