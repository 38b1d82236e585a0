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
 * A digest of a JSON value whatever the order of its keys: what tells a repeated event from another reusing its
 * eventId, and one video's outputs from another's (render once).
 */
export const digestOf = (value: unknown): string =>
  crypto.createHash("sha256").update(canonical(value)).digest("base64url")
