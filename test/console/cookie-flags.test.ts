import { Cookies, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "vitest"
import { isCrossSite } from "../../src/http/CrossSite.js"
import { shownPath } from "../../src/http/SecretPaths.js"
import { sessionCookieName, withoutSessionCookie, withSessionCookie } from "../../src/http/SessionCredentials.js"
import { safeReturnTo } from "../../src/people/People.js"

const setCookieOf = (response: HttpServerResponse.HttpServerResponse) => Cookies.toSetCookieHeaders(response.cookies)

const request = (method: string, headers: Record<string, string>) =>
  HttpServerRequest.fromWeb(new Request("http://127.0.0.1/v1/brands", { method, headers }))

describe("the session cookie", () => {
  it("is HttpOnly, SameSite=Lax, Path=/ over http, with no Secure the browser would refuse there", () => {
    const [line] = setCookieOf(withSessionCookie(HttpServerResponse.empty(), "http://clips.lan:8080", "abc"))
    expect(line).toBe("clipwright_session=abc; Path=/; HttpOnly; SameSite=Lax")
  })

  it("takes the __Host- prefix and Secure when PUBLIC_BASE_URL is https, and no Domain", () => {
    expect(sessionCookieName("https://clips.example.com")).toBe("__Host-clipwright_session")
    const [line] = setCookieOf(withSessionCookie(HttpServerResponse.empty(), "https://clips.example.com", "abc"))
    expect(line).toBe("__Host-clipwright_session=abc; Path=/; HttpOnly; Secure; SameSite=Lax")
    expect(line).not.toContain("Domain")
  })

  it("is cleared on sign-out", () => {
    const [line] = setCookieOf(withoutSessionCookie(HttpServerResponse.empty(), "https://clips.example.com"))
    expect(line).toContain("__Host-clipwright_session=;")
    expect(line).toContain("Max-Age=0")
  })
})

describe("cross-site requests", () => {
  const base = "https://clips.example.com"
  it("are told by Sec-Fetch-Site first, then by Origin against PUBLIC_BASE_URL", () => {
    expect(isCrossSite(request("POST", { "sec-fetch-site": "same-origin" }), base)).toBe(false)
    expect(isCrossSite(request("POST", { "sec-fetch-site": "none" }), base)).toBe(false)
    expect(isCrossSite(request("POST", { "sec-fetch-site": "same-site" }), base)).toBe(true)
    expect(isCrossSite(request("DELETE", { "sec-fetch-site": "cross-site", origin: base }), base)).toBe(true)
    expect(isCrossSite(request("PUT", { origin: base }), base)).toBe(false)
    expect(isCrossSite(request("PATCH", { origin: "https://clips.example.com.evil.test" }), base)).toBe(true)
    expect(isCrossSite(request("POST", { origin: "null" }), base)).toBe(true)
    // No browser sent it: no ambient cookie to abuse.
    expect(isCrossSite(request("POST", {}), base)).toBe(false)
    expect(isCrossSite(request("GET", { "sec-fetch-site": "cross-site" }), base)).toBe(false)
  })
})

describe("addresses", () => {
  it("show a sign-in token as :token in spans", () => {
    expect(shownPath("/console/sign-in/AbC-123_x")).toBe("/console/sign-in/:token")
    expect(shownPath("/console/sign-in")).toBe("/console/sign-in")
    expect(shownPath("/v1/brands")).toBe("/v1/brands")
  })

  it("send a person back only to the console's own pages after sign-in", () => {
    expect(safeReturnTo("/console/approvals?state=waiting")).toBe("/console/approvals?state=waiting")
    expect(safeReturnTo("//evil.test/console")).toBe("/console")
    expect(safeReturnTo("/console//evil.test")).toBe("/console")
    expect(safeReturnTo("https://evil.test/console")).toBe("/console")
    expect(safeReturnTo("/v1/brands")).toBe("/console")
    expect(safeReturnTo("/consoleevil")).toBe("/console")
    expect(safeReturnTo(undefined)).toBe("/console")
  })
})
