/**
 * The node's email outbox: without `SMTP_URL` every email it sends (hand-overs, approval requests, sign-in links) is
 * written as an `.eml` file to `DATA_DIR/outbox/`, which any mail program opens.
 */
import * as fs from "node:fs"
import * as path from "node:path"

export const outboxOf = (dataDir: string) => path.join(dataDir, "outbox")

/** The newest `.eml` whose name starts with `prefix`, once one is there. */
export const waitForEmail = async (dataDir: string, prefix: string, timeoutMs: number): Promise<string> => {
  const outbox = outboxOf(dataDir)
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const names = fs.existsSync(outbox) ? fs.readdirSync(outbox) : []
    const found = names.filter((n) => n.startsWith(prefix) && n.endsWith(".eml")).sort().at(-1)
    if (found !== undefined) return path.join(outbox, found)
    if (Date.now() > deadline) throw new Error(`no ${prefix}*.eml in ${outbox} within ${timeoutMs / 1000} s`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** The body of a one-part email as text: quoted-printable and base64 decoded, as a mail program shows it. */
export const textOf = (eml: string): string => {
  const raw = fs.readFileSync(eml, "utf8").replace(/\r\n/g, "\n")
  const split = raw.indexOf("\n\n")
  const headers = raw.slice(0, split)
  const body = raw.slice(split + 2)
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase()
  if (encoding === "base64") return Buffer.from(body, "base64").toString("utf8")
  if (encoding === "quoted-printable") {
    // Soft line breaks go, and each =XX is a byte; the bytes are UTF-8.
    const escaped = body.replace(/=\n/g, "").replace(/%/g, "%25").replace(/=([0-9A-F]{2})/gi, "%$1")
    return decodeURIComponent(escaped)
  }
  return body
}

/** A path as a person types it: relative to the current folder when it is inside it. */
export const shown = (file: string) => {
  const relative = path.relative(process.cwd(), file)
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative
}
