/**
 * A receipt URL lets whoever holds it set a post's platformPostId and permalink: the deliveries log shows it only to
 * a caller who may change posts (`posts:write`). To others each receipt link keeps its path (which post) and loses
 * its query (`exp`, `sig`: the signature that is the authorisation).
 */
export const RECEIPTS_SHOWN_TO = "posts:write"

const RECEIPT_LINK = /(\/v1\/receipts\/[^?\s"'<>]*)\?[^\s"'<>]*/g

export const hideReceiptLinks = (text: string) => text.replace(RECEIPT_LINK, "$1?hidden")

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

// A text part of the message as nodemailer writes it: its headers (the encoding among them), a blank line, its body
// up to the next boundary line of the message (a body may hold lines of dashes of its own).
const encodedTextPart = (boundaries: ReadonlyArray<string>) =>
  new RegExp(
    "(Content-Type: text/[^\\r\\n]*\\r\\n(?:[ \\t][^\\r\\n]*\\r\\n)*Content-Transfer-Encoding: )" +
      "(quoted-printable|base64)(\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n)" +
      `([\\s\\S]*?)(?=${[...boundaries.map((b) => `\\r\\n--${escaped(b)}`), "$"].join("|")})`,
    "gi"
  )

const decodedPart = (encoding: string, body: string) =>
  encoding.toLowerCase() === "base64"
    ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
    : Buffer.from(
      body.replace(/=\r?\n/g, "").replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) =>
        String.fromCharCode(parseInt(hex, 16))),
      "latin1"
    ).toString("utf8")

/**
 * An email message (RFC 5322) with its receipt links hidden. Its text parts are shown decoded (`8bit`): in
 * quoted-printable or base64 a link would not be found by its text, and could still be read back.
 */
export const hideReceiptLinksInEmail = (message: string) => {
  const boundaries = [...message.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]!)
  return hideReceiptLinks(
    message.replace(
      encodedTextPart(boundaries),
      (_, head: string, encoding: string, rest: string, body: string) =>
        `${head}8bit${rest}${decodedPart(encoding, body)}`
    )
  )
}
