import { type Cookies, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Context, type Effect, type Option } from "effect"
import type { Principal } from "../domain/Principal.js"

/**
 * The port through which the edge resolves a person's session cookie into its caller, as `ApiKeys` does for keys.
 * The people area implements it.
 */
export class SessionCredentials extends Context.Tag("clipwright/http/SessionCredentials")<SessionCredentials, {
  readonly authenticate: (sessionId: string) => Effect.Effect<Option.Option<Principal>>
}>() {}

const NAME = "clipwright_session"

/** Over https the cookie takes the `__Host-` prefix: Secure, Path=/ and no Domain, so no subdomain can set it. */
export const sessionCookieName = (publicBaseUrl: string) =>
  publicBaseUrl.startsWith("https://") ? `__Host-${NAME}` : NAME

/** The session id the request carries, or "" when it has none. */
export const sessionIdOf = (request: HttpServerRequest.HttpServerRequest, publicBaseUrl: string): string =>
  request.cookies[sessionCookieName(publicBaseUrl)] ?? ""

const cookieOptions = (publicBaseUrl: string): Cookies.Cookie["options"] => ({
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: publicBaseUrl.startsWith("https://")
})

/** Sets the session cookie: a browser session cookie, the server ends it (7 idle days, 30 in all, sign-out). */
export const withSessionCookie = (
  response: HttpServerResponse.HttpServerResponse,
  publicBaseUrl: string,
  sessionId: string
) =>
  HttpServerResponse.unsafeSetCookie(
    response,
    sessionCookieName(publicBaseUrl),
    sessionId,
    cookieOptions(publicBaseUrl)
  )

export const withoutSessionCookie = (response: HttpServerResponse.HttpServerResponse, publicBaseUrl: string) =>
  HttpServerResponse.unsafeSetCookie(response, sessionCookieName(publicBaseUrl), "", {
    ...cookieOptions(publicBaseUrl),
    maxAge: 0,
    expires: new Date(0)
  })
