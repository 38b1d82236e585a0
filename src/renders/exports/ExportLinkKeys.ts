import type { SigningService } from "../../storage/Signing.js"

/** An export link for an unkept video lasts this long (SPEC "Limits"). */
export const UNKEPT_LINK_MS = 15 * 60 * 1000

/**
 * A kept video's link has no date of its own: it holds while the export stays kept, which the route checks when it
 * serves. The HMAC still needs an `exp`, so it carries the largest one `Signing` writes.
 */
const WHILE_KEPT_EXP = 999_999_999_999
const KEPT_MARK = "kept"

/** Distinct from every signed asset resource (those are paths starting with `/`), so no signature serves both. */
const resourceOf = (jobId: string, whileKept: boolean) => `export-link:${jobId}${whileKept ? ":kept" : ""}`

export interface IssuedLinkKey {
  /** `<exp>.<sig>` for an unkept video, `kept.<sig>` for a kept one; URL-safe as is. */
  readonly key: string
  /** Null for a kept video. */
  readonly expiresAt: Date | null
}

export type LinkKeyCheck =
  | { readonly _tag: "Invalid" }
  /** Valid for this export; `whileKept`: only while the export is still kept. */
  | { readonly _tag: "Valid"; readonly whileKept: boolean }

/**
 * A key naming exactly one export. `notAfter` can shorten an unkept video's 15 minutes (its file goes two hours after
 * it finished, and a link should not promise more).
 */
export const issueLinkKey = (
  signing: SigningService,
  jobId: string,
  kept: boolean,
  now: Date,
  notAfter?: Date
): IssuedLinkKey => {
  if (kept) {
    const { sig } = signing.sign(resourceOf(jobId, true), new Date(WHILE_KEPT_EXP * 1000))
    return { key: `${KEPT_MARK}.${sig}`, expiresAt: null }
  }
  const until = Math.min(now.getTime() + UNKEPT_LINK_MS, notAfter?.getTime() ?? Infinity)
  const { exp, sig } = signing.sign(resourceOf(jobId, false), new Date(until))
  return { key: `${exp}.${sig}`, expiresAt: new Date(exp * 1000) }
}

/** Pure: whether `key` opens export `jobId` at `now` (tampered, malformed, another export's or expired: Invalid). */
export const checkLinkKey = (signing: SigningService, jobId: string, key: string, now: Date): LinkKeyCheck => {
  const dot = key.indexOf(".")
  if (dot <= 0) return { _tag: "Invalid" }
  const head = key.slice(0, dot)
  const sig = key.slice(dot + 1)
  const whileKept = head === KEPT_MARK
  const valid = signing.verify(resourceOf(jobId, whileKept), whileKept ? WHILE_KEPT_EXP : head, sig, now)
  return valid ? { _tag: "Valid", whileKept } : { _tag: "Invalid" }
}
