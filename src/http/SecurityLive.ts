import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { Forbidden, Unauthenticated } from "../domain/Errors.js"
import { hasPermission, PLATFORM_SCOPE, type Requirement, requirementFor } from "../domain/Permissions.js"
import { anonymous, type Principal } from "../domain/Principal.js"
import { AdminAuthentication, Authentication } from "./Security.js"
import { AdminToken, tokensMatch } from "./AdminToken.js"
import { ApiKeys } from "./ApiKeys.js"

const unauthenticated = new Unauthenticated({
  message: "Missing or invalid API key: send `Authorization: Bearer <API_KEY>` with a live key."
})

const authorize = (principal: Principal, requirement: Requirement, serviceAccount: string | undefined) => {
  if (serviceAccount !== undefined && serviceAccount !== principal.workspaceId) {
    return Effect.fail(new Forbidden({ message: "x-service-account names another account than this key's." }))
  }
  switch (requirement._tag) {
    case "AnyKey":
      return Effect.succeed(principal)
    case "OwnerOnly":
      return Effect.fail(new Forbidden({ message: "Only a signed-in owner may do this; API keys are always refused." }))
    case "Platform":
      return hasPermission(principal.scopes, PLATFORM_SCOPE)
        ? Effect.succeed(principal)
        : Effect.fail(new Forbidden({ message: `This credential lacks the ${PLATFORM_SCOPE} scope.` }))
    case "Permission":
      return hasPermission(principal.scopes, requirement.permission)
        ? Effect.succeed(principal)
        : Effect.fail(new Forbidden({ message: `This key lacks the ${requirement.permission} permission; add it to the key.` }))
  }
}

/** Resolves a bearer key into the caller and checks the route's requirement (SPEC Authentication). */
export const authenticateRequest = (
  apiKeys: ApiKeys["Type"],
  request: HttpServerRequest.HttpServerRequest,
  routePath: string,
  key: string
): Effect.Effect<Principal, Unauthenticated | Forbidden> => {
  // Plain combinators rather than a generator: this runs on every request.
  const requirement = requirementFor(request.method, routePath)
  if (key === "") {
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

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(ApiKeys, (apiKeys) => ({
    bearer: (token) =>
      Effect.flatMap(
        Effect.context<HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext>(),
        (context) =>
          authenticateRequest(
            apiKeys,
            Context.get(context, HttpServerRequest.HttpServerRequest),
            Context.get(context, HttpRouter.RouteContext).route.path,
            Redacted.value(token)
          )
      )
  }))
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
