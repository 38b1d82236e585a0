import type { HttpServerRequest } from "@effect/platform"

const SAFE = new Set(["GET", "HEAD", "OPTIONS"])

const originOf = (url: string) => {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/**
 * Whether an unsafe request (POST, PUT, PATCH, DELETE) was sent by another site, so that a session cookie riding on
 * it must not count (CONTRACT "Session"). Browsers say so in `Sec-Fetch-Site`; older ones only in `Origin`, checked
 * against `PUBLIC_BASE_URL`. A request with neither header comes from no browser, so it carries no ambient cookie.
 */
export const isCrossSite = (request: HttpServerRequest.HttpServerRequest, publicBaseUrl: string): boolean => {
  if (SAFE.has(request.method)) return false
  const site = request.headers["sec-fetch-site"]
  if (site !== undefined) return site !== "same-origin" && site !== "none"
  const origin = request.headers["origin"]
  if (origin === undefined) return false
  return origin === "null" || origin !== originOf(publicBaseUrl)
}
