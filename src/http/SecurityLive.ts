import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { AppConfig } from "../Config.js"
import { Forbidden, Unauthenticated } from "../domain/Errors.js"
import { hasPermission, PLATFORM_SCOPE, type Requirement, requirementFor } from "../domain/Permissions.js"
import { anonymous, type Principal } from "../domain/Principal.js"
import { AdminToken, tokensMatch } from "./AdminToken.js"
import { ApiKeys } from "./ApiKeys.js"
import { isCrossSite } from "./CrossSite.js"
import { AdminAuthentication, Authentication } from "./Security.js"
import { SessionCredentials, sessionIdOf } from "./SessionCredentials.js"

const unauthenticated = new Unauthenticated({
  message: "Missing or invalid API key: send `Authorization: Bearer <API_KEY>` with a live key."
})

const signedOut = new Unauthenticated({
  message: "Your session has ended (signed out, 7 idle days or 30 days); sign in again at /console/sign-in."
})

const crossSite = new Forbidden({
  message: "A session's POST, PUT, PATCH or DELETE must come from this site's own pages; this one came from another."
})

const authorize = (principal: Principal, requirement: Requirement, serviceAccount: string | undefined) => {
  if (serviceAccount !== undefined && serviceAccount !== principal.workspaceId) {
    return Effect.fail(new Forbidden({ message: "x-service-account names another account than this key's." }))
  }
  switch (requirement._tag) {
    case "AnyKey":
      return Effect.succeed(principal)
    case "OwnerOnly":
      return principal.person?.role === "owner"
        ? Effect.succeed(principal)
        : Effect.fail(new Forbidden({ message: "Only a signed-in owner may do this; API keys are always refused." }))
    case "Platform":
      return hasPermission(principal.scopes, PLATFORM_SCOPE)
        ? Effect.succeed(principal)
        : Effect.fail(new Forbidden({ message: `This credential lacks the ${PLATFORM_SCOPE} scope.` }))
    case "Permission":
      return hasPermission(principal.scopes, requirement.permission)
        ? Effect.succeed(principal)
        : Effect.fail(
          new Forbidden({ message: `This key lacks the ${requirement.permission} permission; add it to the key.` })
        )
  }
}

/** A person's session: refused when the request came from another site, then judged by the person's role. */
const authenticateSession = (
  sessions: SessionCredentials["Type"],
  publicBaseUrl: string,
  request: HttpServerRequest.HttpServerRequest,
  requirement: Requirement,
  sessionId: string
): Effect.Effect<Principal, Unauthenticated | Forbidden> => {
  if (isCrossSite(request, publicBaseUrl)) return Effect.fail(crossSite)
  return Effect.flatMap(
    sessions.authenticate(sessionId),
    (found): Effect.Effect<Principal, Unauthenticated | Forbidden> =>
      Option.isNone(found)
        ? Effect.fail(signedOut)
        : authorize(found.value, requirement, request.headers["x-service-account"])
  )
}

export interface Credentials {
  readonly apiKeys: ApiKeys["Type"]
  readonly sessions: SessionCredentials["Type"]
  readonly publicBaseUrl: string
}

/**
 * Resolves a bearer key, or without one a person's session cookie, into the caller and checks the route's
 * requirement (SPEC Authentication; CONTRACT "Session"). A bearer wins over a cookie sent beside it.
 */
export const authenticateRequest = (
  credentials: Credentials,
  request: HttpServerRequest.HttpServerRequest,
  routePath: string,
  key: string
): Effect.Effect<Principal, Unauthenticated | Forbidden> => {
  // Plain combinators rather than a generator: this runs on every request.
  const { apiKeys, publicBaseUrl, sessions } = credentials
  const requirement = requirementFor(request.method, routePath)
  if (key === "") {
    const sessionId = sessionIdOf(request, publicBaseUrl)
    if (sessionId !== "") return authenticateSession(sessions, publicBaseUrl, request, requirement, sessionId)
    return requirement._tag === "Permission" && requirement.public ? Effect.succeed(anonymous) : unauthenticated
  }
  return Effect.flatMap(apiKeys.authenticate(key), (found): Effect.Effect<Principal, Unauthenticated | Forbidden> => {
    if (Option.isNone(found)) return unauthenticated
    if (found.value.kind === "platform") {
      return requirement._tag === "Platform"
        ? Effect.succeed(found.value)
        : Effect.fail(new Forbidden({ message: "A platform credential may only call /v1/broadcast routes." }))
    }
    return authorize(found.value, requirement, request.headers["x-service-account"])
  })
}

/** The bearer the request carries, "" without one, read exactly as the platform reads it for `bearer`. */
const bearerOf = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["authorization"] ?? "").slice("Bearer ".length)

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Effect.all({ apiKeys: ApiKeys, sessions: SessionCredentials, config: AppConfig }), (
    { apiKeys, config, sessions }
  ) => {
    const credentials = { apiKeys, sessions, publicBaseUrl: config.publicBaseUrl }
    const judge = (key: string) =>
      Effect.flatMap(
        Effect.context<HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext>(),
        (context) =>
          authenticateRequest(
            credentials,
            Context.get(context, HttpServerRequest.HttpServerRequest),
            Context.get(context, HttpRouter.RouteContext).route.path,
            key
          )
      )
    return {
      bearer: (token) => judge(Redacted.value(token)),
      // The platform tries this one only after `bearer` failed; judging the request whole again gives the same
      // answer, so the failure the caller sees is the first one's.
      session: () => Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => judge(bearerOf(request)))
    }
  })
)

export const AdminAuthenticationLive = Layer.effect(
  AdminAuthentication,
  Effect.gen(function*() {
    const expected = yield* AdminToken
    return {
      bearer: (token) =>
        tokensMatch(expected, Redacted.value(token))
          ? Effect.void
          : Effect.fail(new Unauthenticated({ message: "Missing or wrong admin token." }))
    }
  })
)
