/** `Content-Disposition` with a file name (RFC 6266, RFC 8187 for names beyond ASCII). */

const CONTROL = /[\u0000-\u001f\u007f]/g

/** RFC 8187 attr-chars stay; everything else is percent-encoded UTF-8 (`encodeURIComponent` leaves `'()*` alone). */
const encodeExtValue = (s: string) =>
  encodeURIComponent(s).replace(/['()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())

export const contentDisposition = (type: "inline" | "attachment", filename?: string): string => {
  if (filename === undefined) return type
  const name = filename.replace(CONTROL, "")
  // The plain `filename` is for old clients: printable ASCII only, without quotes or backslashes.
  const fallback = name.replace(/[^\u0020-\u007e]|["\\]/g, "_")
  const plain = `${type}; filename="${fallback}"`
  return fallback === name ? plain : `${plain}; filename*=UTF-8''${encodeExtValue(name)}`
}
