/** Entry names for zips: flat, safe on every unzip tool, and unique. */

const UNSAFE = /[\u0000-\u001f\u007f/\\:*?"<>|]/g
const MAX_LENGTH = 200

const splitExtension = (name: string): readonly [string, string] => {
  const dot = name.lastIndexOf(".")
  return dot > 0 && name.length - dot <= 16 ? [name.slice(0, dot), name.slice(dot)] : [name, ""]
}

/** No folders, control characters or characters Windows refuses; never empty; at most 200 characters. */
export const safeName = (name: string): string => {
  const cleaned = name.replace(UNSAFE, "_").trim().replace(/^\.+$/, "")
  if (cleaned === "") return "file"
  if (cleaned.length <= MAX_LENGTH) return cleaned
  const [stem, ext] = splitExtension(cleaned)
  return stem.slice(0, MAX_LENGTH - ext.length).trimEnd() + ext
}

/**
 * Safe names in order, a clash getting ` (2)`, ` (3)`… before the extension. Clashes are found ignoring case, since
 * Windows and macOS unpack `A.mp4` and `a.mp4` onto one file.
 */
export const uniqueNames = (names: ReadonlyArray<string>): Array<string> => {
  const taken = new Set<string>()
  return names.map((raw) => {
    const name = safeName(raw)
    const [stem, ext] = splitExtension(name)
    let candidate = name
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`
    taken.add(candidate.toLowerCase())
    return candidate
  })
}
