import { HttpApiBuilder, HttpRouter, HttpServerRequest } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import { PositiveIntParam } from "../../http/Paging.js"
import { IngestEvents } from "../../ingest/IngestEvents.js"
import { htmlPage } from "../ConsoleResponse.js"
import { CurrentPerson, makeSignedIn } from "../ConsoleSession.js"
import { notFoundPage } from "../Refusals.js"
import { refusedPage } from "../SignInPages.js"
import { eventPage } from "./EventPage.js"
import { type EventsFilter, eventsPage, ORIGINS, STATUSES } from "./EventsPage.js"

const PER_PAGE = 25
const orEmpty = <A extends string>(values: ReadonlyArray<A>) => Schema.Literal("", ...values)
const ListQuery = Schema.Struct({
  status: Schema.optional(orEmpty(STATUSES)),
  origin: Schema.optional(orEmpty(ORIGINS)),
  q: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
  page: Schema.optional(PositiveIntParam)
})
const IdPath = Schema.Struct({ id: Schema.String.pipe(Schema.pattern(/^[0-9A-Za-z]{1,64}$/)) })

const blankless = <A extends string>(value: A | "" | undefined): A | undefined => value === "" ? undefined : value

const notFound = () => notFoundPage("event")

/** The ingest log: `/console/events` (filters, pages) and `/console/events/{id}` (one event and its jobs). */
export const EventRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const events = yield* IngestEvents
    const signedIn = yield* makeSignedIn

    yield* router.get(
      "/console/events",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        const q = yield* Effect.option(HttpServerRequest.schemaSearchParams(ListQuery))
        if (Option.isNone(q)) {
          return htmlPage(
            refusedPage(
              "Not understood",
              `Filter by a status (${STATUSES.join(", ")}), an origin (${ORIGINS.join(", ")}) and a page from 1.`
            ),
            400
          )
        }
        const search = q.value.q?.trim()
        const filter: EventsFilter = {
          status: blankless(q.value.status),
          origin: blankless(q.value.origin),
          q: search === "" ? undefined : search,
          page: q.value.page ?? 1
        }
        const found = yield* events.list(person.workspaceId, { ...filter, perPage: PER_PAGE })
        return htmlPage(eventsPage({ person, filter, found }))
      }))
    )

    yield* router.get(
      "/console/events/:id",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        return yield* events.show(person.workspaceId, path.value.id).pipe(
          Effect.map(({ event }) => htmlPage(eventPage({ person, event }))),
          Effect.catchTag("NotFound", () => Effect.succeed(notFound()))
        )
      }))
    )
  })
)
