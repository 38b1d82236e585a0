import * as crypto from "node:crypto"

/** JSON with object keys sorted, so one body is one text however its keys were ordered on the wire. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

/**
 * What tells a repeated event (same eventId, same body: a duplicate) from another event reusing its eventId (409):
 * the decoded envelope with its address, minus what the service ignores.
 */
export const bodyHash = (body: unknown): string => crypto.createHash("sha256").update(canonical(body)).digest("base64url")
