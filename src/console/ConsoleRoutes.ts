import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import { AppConfig } from "../Config.js"
import { sessionIdOf, withoutSessionCookie, withSessionCookie } from "../http/SessionCredentials.js"
import { People } from "../people/People.js"
import { ASSETS, makeAssets } from "./ConsoleAssets.js"
import { htmlPage, seeOther } from "./ConsoleResponse.js"
import { crossSiteRefusal, isHtmx, makeSignedIn } from "./ConsoleSession.js"
import { continuePage, deadLinkPage, linkSentPage, refusedPage, signInPage } from "./SignInPages.js"

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/
const SignInForm = Schema.Struct({ email: Schema.String, next: Schema.optional(Schema.String) })
const SwitchForm = Schema.Struct({ workspaceId: Schema.String })
const TokenPath = Schema.Struct({ token: Schema.String })
const NextQuery = Schema.Struct({ next: Schema.optional(Schema.String) })

const badForm = (message: string) => htmlPage(refusedPage("Not understood", message), 400)

/** The pieces of the console that belong to no page area: assets, signing in and out, the switcher, the home page. */
export const ConsoleRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const people = yield* People
    const { publicBaseUrl } = yield* AppConfig
    const assets = yield* makeAssets
    const signedIn = yield* makeSignedIn

    /** An unsafe console request from another site never reaches its handler. */
    const sameSite = <E, R>(handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Option.getOrElse(Option.map(crossSiteRefusal(request, publicBaseUrl), Effect.succeed), () => handler))

    yield* router.get(ASSETS.css, Effect.succeed(assets.css))
    yield* router.get(ASSETS.htmx, Effect.succeed(assets.htmx))

    yield* router.get(
      "/console/sign-in",
      HttpServerRequest.schemaSearchParams(NextQuery).pipe(
        Effect.map(({ next }) =>
          htmlPage(signInPage({ next }))
        ),
        Effect.orElseSucceed(() => htmlPage(signInPage({})))
      )
    )

    yield* router.post(
      "/console/sign-in",
      sameSite(Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const form = yield* Effect.option(HttpServerRequest.schemaBodyUrlParams(SignInForm))
        if (Option.isNone(form)) return badForm("Send the sign-in form with an Email.")
        const email = form.value.email.trim()
        if (!EMAIL.test(email)) {
          return htmlPage(
            signInPage({ next: form.value.next, notice: "Enter an email address, like ana@example.com." }),
            400
          )
        }
        const client = Option.getOrElse(request.remoteAddress, () => "unknown")
        return yield* people.requestLink(email, client, form.value.next).pipe(
          Effect.as(htmlPage(linkSentPage(email))),
          Effect.catchTag("RateLimited", (limited) =>
            Effect.succeed(
              HttpServerResponse.setHeader(
                htmlPage(signInPage({ next: form.value.next, notice: limited.message }), 429),
                "retry-after",
                String(limited.retryAfterSeconds ?? 60)
              )
            ))
        )
      }))
    )

    yield* router.get(
      "/console/sign-in/:token",
      Effect.gen(function*() {
        const { token } = yield* HttpRouter.schemaPathParams(TokenPath)
        const live = yield* people.isLinkLive(token)
        return live ? htmlPage(continuePage(token)) : htmlPage(deadLinkPage(), 410)
      }).pipe(Effect.catchTag("ParseError", () => Effect.succeed(htmlPage(deadLinkPage(), 410))))
    )

    yield* router.post(
      "/console/sign-in/:token",
      sameSite(
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const { token } = yield* HttpRouter.schemaPathParams(TokenPath)
          const opened = yield* people.signIn(token, sessionIdOf(request, publicBaseUrl))
          if (Option.isNone(opened)) return htmlPage(deadLinkPage(), 410)
          return withSessionCookie(seeOther(opened.value.returnTo), publicBaseUrl, opened.value.sessionId)
        }).pipe(Effect.catchTag("ParseError", () => Effect.succeed(htmlPage(deadLinkPage(), 410))))
      )
    )

    yield* router.post(
      "/console/sign-out",
      sameSite(Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const sessionId = sessionIdOf(request, publicBaseUrl)
        if (sessionId !== "") yield* people.signOut(sessionId)
        const page = htmlPage(signInPage({ notice: "You are signed out." }))
        return withoutSessionCookie(page, publicBaseUrl)
      }))
    )

    yield* router.post(
      "/console/workspace",
      signedIn(Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const form = yield* Effect.option(HttpServerRequest.schemaBodyUrlParams(SwitchForm))
        if (Option.isNone(form)) return badForm("Choose a workspace to switch to.")
        const switched = yield* people.switchWorkspace(sessionIdOf(request, publicBaseUrl), form.value.workspaceId)
        if (!switched) return htmlPage(refusedPage("Not a member", "You are no member of that workspace."), 403)
        return seeOther("/console", isHtmx(request))
      }))
    )
  })
)
