import { HttpServerResponse } from "@effect/platform"

/**
 * Every console page: scripts and styles only from our own files (no inline script or style, no eval), media and
 * requests only to this origin, forms posting only here, never framed.
 */
export const CONSOLE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
  "media-src 'self' blob:; connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; " +
  "base-uri 'none'"

export const PAGE_HEADERS = {
  "content-security-policy": CONSOLE_CSP,
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY"
} as const

/**
 * A rendered page with the console's headers. Console components are synchronous, so an element is a string; an
 * async one (a Promise) would be a programming error, caught here rather than sent as "[object Promise]".
 */
export const htmlPage = (html: JSX.Element, status = 200) => {
  if (typeof html !== "string") throw new TypeError("Console pages render synchronously; an async component was used.")
  return HttpServerResponse.text(html, { status, contentType: "text/html; charset=utf-8", headers: PAGE_HEADERS })
}

/**
 * After a form's POST, on to the next page (303: the browser GETs it). An htmx request is told through
 * `HX-Redirect` instead, as it would otherwise swap the next page into the current one.
 */
export const seeOther = (location: string, htmx = false) =>
  htmx
    ? HttpServerResponse.empty({ status: 200, headers: { ...PAGE_HEADERS, "hx-redirect": location } })
    : HttpServerResponse.empty({ status: 303, headers: { ...PAGE_HEADERS, location } })
