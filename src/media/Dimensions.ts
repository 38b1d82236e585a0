import { Effect } from "effect"

export interface Size {
  readonly width: number
  readonly height: number
}

/** The largest picture the library takes, on either side (SPEC Limits; SVG is exempt). */
export const MAX_SIDE = 2048

/** Up to `length` bytes at `offset` (fewer at the end of the file). */
export type ReadAt = (offset: number, length: number) => Effect.Effect<Uint8Array>

/** A `ReadAt` over bytes in memory. */
export const readBytes = (bytes: Uint8Array): ReadAt => (offset, length) =>
  Effect.succeed(bytes.subarray(offset, offset + length))

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8)
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)
const u32be = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!
const ascii = (b: Uint8Array, at: number, text: string) =>
  b.length >= at + text.length && [...text].every((c, i) => b[at + i] === c.charCodeAt(0))

const sized = (width: number, height: number): Size | undefined =>
  Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 ? { width, height } : undefined

/** IHDR must be the first chunk. */
const png = (read: ReadAt) =>
  Effect.map(
    read(0, 24),
    (b) => b.length === 24 && ascii(b, 12, "IHDR") ? sized(u32be(b, 16), u32be(b, 20)) : undefined
  )

const gif = (read: ReadAt) =>
  Effect.map(read(0, 10), (b) => b.length === 10 ? sized(u16le(b, 6), u16le(b, 8)) : undefined)

const webp = (read: ReadAt) =>
  Effect.map(read(0, 30), (b) => {
    if (b.length < 30) return undefined
    if (ascii(b, 12, "VP8 ")) {
      return b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a
        ? sized(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff)
        : undefined
    }
    if (ascii(b, 12, "VP8L")) {
      if (b[20] !== 0x2f) return undefined
      const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)
      return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1)
    }
    if (ascii(b, 12, "VP8X")) return sized(u24le(b, 24) + 1, u24le(b, 27) + 1)
    return undefined
  })

/** Start-of-frame markers that carry the picture size (not DHT C4, JPG C8, DAC CC). */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc
const isStandalone = (m: number) => (m >= 0xd0 && m <= 0xd8) || m === 0x01

/** Walks the segments from SOI to the first SOFn; reaching scan data, the end or a broken marker is unreadable. */
const jpeg = (read: ReadAt) =>
  Effect.gen(function*() {
    let at = 2
    for (let segments = 0; segments < 10_000; segments++) {
      const head = yield* read(at, 10)
      if (head.length < 2 || head[0] !== 0xff) return undefined
      const marker = head[1]!
      if (marker === 0xff) {
        at += 1
        continue
      }
      if (isStandalone(marker)) {
        at += 2
        continue
      }
      if (marker === 0xd9 || marker === 0xda || head.length < 4) return undefined
      if (isSof(marker)) return head.length < 9 ? undefined : sized(u16be(head, 7), u16be(head, 5))
      const length = u16be(head, 2)
      if (length < 2) return undefined
      at += 2 + length
    }
    return undefined
  })

const readers: Record<string, (read: ReadAt) => Effect.Effect<Size | undefined>> = {
  "image/png": png,
  "image/gif": gif,
  "image/webp": webp,
  "image/jpeg": jpeg
}

/**
 * Width and height from the file header of a PNG, JPEG, WebP or GIF; `undefined` when the header cannot be read
 * (cut short, broken, or not that type). Reads only the few bytes each format needs.
 */
export const dimensionsOf = (mimeType: string, read: ReadAt): Effect.Effect<Size | undefined> => {
  const reader = readers[mimeType]
  return reader === undefined ? Effect.succeed(undefined) : reader(read)
}

export const fitsPixelLimit = (size: Size) => size.width <= MAX_SIDE && size.height <= MAX_SIDE
