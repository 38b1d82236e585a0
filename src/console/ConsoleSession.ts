import { HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Context, Effect, Option } from "effect"
import { AppConfig } from "../Config.js"
import { CurrentWorkspace, type Principal } from "../domain/Principal.js"
import { isCrossSite } from "../http/CrossSite.js"
import { sessionIdOf } from "../http/SessionCredentials.js"
import { People, type SignedIn } from "../people/People.js"
import { scopesOf } from "../people/Roles.js"
import { htmlPage, seeOther } from "./ConsoleResponse.js"
import { refusedPage } from "./SignInPages.js"

/** The signed-in person of a console request, with the workspace they are in now. */
export class CurrentPerson extends Context.Tag("clipwright/console/CurrentPerson")<CurrentPerson, SignedIn>() {}

/** The person as the API's caller, so a page may use any area's service as a `/v1` route would. */
export const principalOf = (person: SignedIn): Principal => ({
  kind: "user",
  workspaceId: person.workspaceId,
  workspaceName: person.workspaceName,
  keyId: "",
  scopes: scopesOf(person.role),
  person: { email: person.email, role: person.role }
})

export const isHtmx = (request: HttpServerRequest.HttpServerRequest) => request.headers["hx-request"] === "true"

/** 403 for an unsafe request sent from another site (CONTRACT "Session"); every console form posts through this. */
export const crossSiteRefusal = (request: HttpServerRequest.HttpServerRequest, publicBaseUrl: string) =>
  isCrossSite(request, publicBaseUrl)
    ? Option.some(htmlPage(
      refusedPage("Refused", "This form was sent from another site. Open the console and send it from there."),
      403
    ))
    : Option.none()

/**
 * Makes the wrapper of pages and actions for signed-in people. Without a live session a GET is sent to sign in and
 * back; an unsafe request from another site is 403. The handler gets `CurrentPerson` and `CurrentWorkspace` (the
 * person as the API's caller). Yield it once where a page area's routes are made: `const signedIn = yield* makeSignedIn`.
 */
export const makeSignedIn = Effect.gen(function*() {
  const people = yield* People
  const { publicBaseUrl } = yield* AppConfig
  return <E, R>(
    handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    E,
    Exclude<Exclude<R, CurrentPerson>, CurrentWorkspace> | HttpServerRequest.HttpServerRequest
  > =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const refusal = crossSiteRefusal(request, publicBaseUrl)
      if (Option.isSome(refusal)) return refusal.value
      const sessionId = sessionIdOf(request, publicBaseUrl)
      const person = sessionId === "" ? Option.none() : yield* people.signedIn(sessionId)
      if (Option.isNone(person)) {
        const next = request.method === "GET" ? `?next=${encodeURIComponent(request.url)}` : ""
        return seeOther(`/console/sign-in${next}`, isHtmx(request))
      }
      return yield* handler.pipe(
        Effect.provideService(CurrentPerson, person.value),
        Effect.provideService(CurrentWorkspace, principalOf(person.value))
      )
    })
})
