/**
 * What in an SVG could make a renderer fetch something outside the file: a reference (`href`, `xlink:href`, `src`,
 * CSS `url(…)`) to anything but a fragment of the same document (`#id`) or an embedded raster picture
 * (`data:image/png|jpeg|gif|webp`), a CSS `@import`, an XML entity declaration, or a backslash (a CSS escape could
 * spell any of these). Each one is found by plain scanning: no pattern with repetition runs over the file.
 */

const EMBEDDED_RASTER = ["data:image/png", "data:image/jpeg", "data:image/jpg", "data:image/gif", "data:image/webp"]

const NAME_CHAR = /[a-z0-9_.-]/
const SPACE = /\s/
/** What an unterminated value stands for: it runs to the end of the file, so it is refused as it is. */
const UNTERMINATED = "…"

const isInside = (value: string) => {
  const v = value.trim()
  return v === "" || v.startsWith("#") || EMBEDDED_RASTER.some((prefix) => v.startsWith(prefix))
}

const skipSpace = (text: string, from: number) => {
  let at = from
  while (at < text.length && SPACE.test(text[at]!)) at++
  return at
}

interface Value {
  readonly value: string
  /** Where scanning goes on: past the value, so no character is scanned twice. */
  readonly next: number
}

/** The value of an attribute whose `=` is at or after `from` (quoted, or up to whitespace or `>`). */
const attributeValue = (text: string, from: number): Value | undefined => {
  let at = skipSpace(text, from)
  if (text[at] !== "=") return undefined
  at = skipSpace(text, at + 1)
  const quote = text[at]
  if (quote === "\"" || quote === "'") {
    const end = text.indexOf(quote, at + 1)
    return end === -1 ? { value: UNTERMINATED, next: text.length } : { value: text.slice(at + 1, end), next: end + 1 }
  }
  let end = at
  while (end < text.length && !SPACE.test(text[end]!) && text[end] !== ">") end++
  return { value: text.slice(at, end), next: end }
}

/** The first attribute `name` pointing outside the file. */
const outsideAttribute = (text: string, name: string): string | undefined => {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at)) {
    const before = text[at - 1]
    const found = before !== undefined && NAME_CHAR.test(before) ? undefined : attributeValue(text, at + name.length)
    if (found !== undefined && !isInside(found.value)) return `${name}="${found.value.slice(0, 60)}"`
    at = Math.max(at + 1, found?.next ?? 0)
  }
  return undefined
}

const outsideUrl = (text: string): string | undefined => {
  for (let at = text.indexOf("url("); at !== -1; at = text.indexOf("url(", at)) {
    let start = skipSpace(text, at + 4)
    const quote = text[start]
    const quoted = quote === "\"" || quote === "'"
    if (quoted) start++
    const close = text.indexOf(quoted ? quote : ")", start)
    const value = close === -1 ? UNTERMINATED : text.slice(start, close)
    if (!isInside(value)) return `url(${value.slice(0, 60)})`
    at = close + 1
  }
  return undefined
}

/** What the SVG text reaches outside itself (shown to the client), or undefined when it is self-contained. */
export const outsideReference = (svgText: string): string | undefined => {
  const text = svgText.toLowerCase()
  if (text.includes("<!entity")) return "an XML entity declaration (<!ENTITY)"
  if (text.includes("@import")) return "a CSS @import"
  // A backslash starts a CSS escape, which can spell `url(` or `@import` in any other way; no drawing needs one.
  if (text.includes("\\")) return "a backslash (a CSS escape)"
  return outsideAttribute(text, "href") ?? outsideAttribute(text, "src") ?? outsideUrl(text)
}
