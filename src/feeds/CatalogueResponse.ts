import { HttpServerResponse } from "@effect/platform"
import { createHash } from "node:crypto"
import { noneMatch, quoteEtag } from "../storage/ByteRanges.js"
import type { Catalogue } from "./Feed.js"

/**
 * The catalogue as sent: the etag is the sha256 of the exact body, so it changes with the catalogue, the template
 * builds behind it, and (with a key) the workspace's entitlements. `vary` keeps shared caches from handing one
 * workspace's `entitled` to another.
 */
export const catalogueResponse = (catalogue: Catalogue, ifNoneMatch: string | undefined) => {
  const body = JSON.stringify(catalogue)
  const etag = quoteEtag(createHash("sha256").update(body).digest("hex"))
  const headers = { etag, "cache-control": "public, max-age=30", vary: "authorization" }
  return noneMatch(ifNoneMatch, etag)
    ? HttpServerResponse.empty({ status: 304, headers })
    : HttpServerResponse.text(body, { contentType: "application/json", headers })
}
