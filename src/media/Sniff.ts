/** The four kinds the media library stores (SPEC "Media file"). */
export type MediaKind = "Image" | "Video" | "Audio" | "Font"

/** What the bytes (and, for fonts, the file name) say a file is; the client's Content-Type is never asked. */
export interface Sniffed {
  readonly kind: MediaKind
  readonly mimeType: string
  /** Extensions that name this type, the usual one first. */
  readonly extensions: ReadonlyArray<string>
}

/** Bytes enough to recognise every type; SVG may start after a prolog, comments and a doctype. */
export const SNIFF_BYTES = 4096

const type = (kind: MediaKind, mimeType: string, ...extensions: Array<string>): Sniffed => ({
  kind,
  mimeType,
  extensions
})

export const PNG = type("Image", "image/png", "png")
export const JPEG = type("Image", "image/jpeg", "jpg", "jpeg")
export const WEBP = type("Image", "image/webp", "webp")
export const GIF = type("Image", "image/gif", "gif")
export const SVG = type("Image", "image/svg+xml", "svg")
export const MP4 = type("Video", "video/mp4", "mp4", "m4v")
export const MP3 = type("Audio", "audio/mpeg", "mp3")
export const WAV = type("Audio", "audio/wav", "wav")

const FONTS: Record<string, Sniffed> = {
  woff2: type("Font", "font/woff2", "woff2"),
  woff: type("Font", "font/woff", "woff"),
  ttf: type("Font", "font/ttf", "ttf"),
  otf: type("Font", "font/otf", "otf")
}

const ascii = (bytes: Uint8Array, at: number, text: string) => {
  if (bytes.length < at + text.length) return false
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false
  return true
}

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>) =>
  bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b)

/** ISO media files that are not MP4 video: still images and QuickTime. */
const NOT_MP4 = ["heic", "heix", "hevc", "mif1", "msf1", "avif", "avis", "qt  "]

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** MPEG audio frame sync: 11 set bits, a defined version and layer. */
const isMpegFrame = (bytes: Uint8Array) =>
  bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0 && (bytes[1]! & 0x18) !== 0x08 &&
  (bytes[1]! & 0x06) !== 0

const binary = (bytes: Uint8Array): Sniffed | undefined => {
  if (startsWith(bytes, PNG_SIGNATURE)) return PNG
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return JPEG
  if (ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a")) return GIF
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return WEBP
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WAVE")) return WAV
  if (ascii(bytes, 4, "ftyp") && !NOT_MP4.some((brand) => ascii(bytes, 8, brand))) return MP4
  if (ascii(bytes, 0, "ID3") || isMpegFrame(bytes)) return MP3
  return undefined
}

const WHITESPACE = /\s/

/** Case-insensitive `word` at `at`. */
const opensWith = (text: string, at: number, word: string) => text.slice(at, at + word.length).toLowerCase() === word

const skipSpace = (text: string, from: number) => {
  let at = from
  while (at < text.length && WHITESPACE.test(text[at]!)) at++
  return at
}

/** Past the XML prolog `<?xml … ?>` at `at` (no `>` inside), or -1. */
const pastProlog = (text: string, at: number) => {
  const end = text.indexOf(">", at)
  return end >= at + 6 && text[end - 1] === "?" ? end + 1 : -1
}

/** Past `<!DOCTYPE svg …>` at `at`, or -1. */
const pastDoctype = (text: string, at: number) => {
  const name = skipSpace(text, at + "<!doctype".length)
  if (name === at + "<!doctype".length || !opensWith(text, name, "svg")) return -1
  const end = text.indexOf(">", name + 3)
  return end === -1 ? -1 : end + 1
}

/**
 * Whether the text opens with an `<svg` element after an optional BOM, XML prolog, then comments, doctypes and
 * whitespace. One pass, each character looked at a bounded number of times: a pattern with nested repetition here
 * backtracked exponentially on repeated comments and stopped the event loop.
 */
export const opensSvg = (text: string): boolean => {
  let at = skipSpace(text, text.startsWith("\uFEFF") ? 1 : 0)
  if (opensWith(text, at, "<?xml")) {
    at = pastProlog(text, at)
    if (at === -1) return false
    at = skipSpace(text, at)
  }
  for (;;) {
    if (text.startsWith("<!--", at)) {
      const end = text.indexOf("-->", at + 4)
      if (end === -1) return false
      at = skipSpace(text, end + 3)
    } else if (opensWith(text, at, "<!doctype")) {
      at = pastDoctype(text, at)
      if (at === -1) return false
      at = skipSpace(text, at)
    } else break
  }
  const after = text[at + 4]
  return opensWith(text, at, "<svg") && after !== undefined &&
    (WHITESPACE.test(after) || after === ">" || after === "/")
}

/** Text that opens with an `<svg` element, after an optional BOM, XML prolog, comments, doctype and whitespace. */
export const isSvg = (bytes: Uint8Array) => {
  const head = bytes.subarray(0, SNIFF_BYTES)
  if (head.includes(0)) return false
  return opensSvg(new TextDecoder("utf-8", { fatal: false }).decode(head))
}

/** The extension of a file name, lower case, without the dot ("" when there is none). */
export const extensionOf = (fileName: string) => {
  const dot = fileName.lastIndexOf(".")
  return dot <= 0 || dot === fileName.length - 1 ? "" : fileName.slice(dot + 1).toLowerCase()
}

const SFNT = [[0x00, 0x01, 0x00, 0x00], [0x4f, 0x54, 0x54, 0x4f], [0x74, 0x72, 0x75, 0x65], [0x74, 0x74, 0x63, 0x66]]

/** The font container each extension promises, so a file named `.ttf` is at least a font. */
const fontBytesFit = (ext: string, bytes: Uint8Array) => {
  switch (ext) {
    case "woff2":
      return ascii(bytes, 0, "wOF2")
    case "woff":
      return ascii(bytes, 0, "wOFF")
    default:
      return SFNT.some((signature) => startsWith(bytes, signature))
  }
}

/**
 * The type of a file from its first bytes (at least `SNIFF_BYTES` of them, or the whole file when shorter): magic
 * numbers for images, video and sound, a text sniff for SVG. Fonts are recognised by the file name's extension (and
 * must hold a font container of that family). `undefined`: not a type the library stores.
 */
export const sniff = (head: Uint8Array, fileName: string): Sniffed | undefined => {
  const found = binary(head)
  if (found !== undefined) return found
  const font = FONTS[extensionOf(fileName)]
  if (font !== undefined) return fontBytesFit(extensionOf(fileName), head) ? font : undefined
  return isSvg(head) ? SVG : undefined
}

/** The file name with the extension swapped for one of `sniffed`'s, keeping one that already fits. */
export const withExtension = (name: string, sniffed: Sniffed, fromName: string) => {
  const sent = extensionOf(fromName)
  const ext = sniffed.extensions.includes(sent) ? sent : sniffed.extensions[0]!
  const dot = name.lastIndexOf(".")
  const stem = dot > 0 ? name.slice(0, dot) : name
  return `${stem}.${ext}`
}
