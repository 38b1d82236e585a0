import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import { PositiveIntParam } from "../../http/Paging.js"
import { PipelineViews } from "../../publishing/pipeline/PipelineViews.js"
import { htmlPage, PAGE_HEADERS } from "../ConsoleResponse.js"
import { CurrentPerson, makeSignedIn } from "../ConsoleSession.js"
import { notUnderstoodPage } from "../Refusals.js"
import { PipelineLive, pipelinePage } from "./PipelinePage.js"

export const PER_PAGE = 50
const PageQuery = Schema.Struct({ page: Schema.optional(PositiveIntParam) })

const notUnderstood = () => notUnderstoodPage("Page is a whole number from 1.")

/** A piece of a page for htmx to swap in, with the console's headers. */
const fragment = (html: JSX.Element) => {
  if (typeof html !== "string") throw new TypeError("Console fragments render synchronously.")
  return HttpServerResponse.text(html, { contentType: "text/html; charset=utf-8", headers: PAGE_HEADERS })
}

/** `/console/pipeline` and the block of it that htmx polls, `/console/pipeline/live`; everyone of a workspace reads. */
export const PipelineRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const views = yield* PipelineViews
    const signedIn = yield* makeSignedIn
    const live = Effect.gen(function*() {
      const person = yield* CurrentPerson
      const q = yield* Effect.option(HttpServerRequest.schemaSearchParams(PageQuery))
      if (Option.isNone(q)) return Option.none()
      return Option.some({ person, live: yield* views.inFlight(person.workspaceId, q.value.page ?? 1, PER_PAGE) })
    })

    yield* router.get(
      "/console/pipeline",
      signedIn(Effect.map(live, (found) =>
        Option.match(found, {
          onNone: notUnderstood,
          onSome: (p) => htmlPage(pipelinePage(p))
        })))
    )
    yield* router.get(
      "/console/pipeline/live",
      signedIn(Effect.map(live, (found) =>
        Option.match(found, {
          onNone: notUnderstood,
          onSome: (p) => fragment(PipelineLive(p))
        })))
    )
  })
)
