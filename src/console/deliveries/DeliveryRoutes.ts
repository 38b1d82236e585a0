import { HttpApiBuilder, HttpRouter, HttpServerRequest } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import { Channels } from "../../channels/Channels.js"
import { DeliveryEvent, DeliveryState, DeliveryVia } from "../../delivery/handover/DeliveryRecord.js"
import { Deliveries } from "../../delivery/log/Deliveries.js"
import { RECEIPTS_SHOWN_TO } from "../../delivery/log/ReceiptRedaction.js"
import { hasPermission } from "../../domain/Permissions.js"
import { CurrentWorkspace } from "../../domain/Principal.js"
import { PositiveIntParam } from "../../http/Paging.js"
import { htmlPage, seeOther } from "../ConsoleResponse.js"
import { CurrentPerson, isHtmx, makeSignedIn } from "../ConsoleSession.js"
import { notAllowedPage, notFoundPage } from "../Refusals.js"
import { type DeliveriesFilter, deliveriesPage } from "./DeliveriesPage.js"
import { deliveryHref } from "./DeliveryBits.js"
import { deliveryPage } from "./DeliveryPage.js"
import { noticeOf, type Outcome } from "./RedeliverOutcome.js"

const PER_PAGE = 50
const IdPath = Schema.Struct({ id: Schema.String.pipe(Schema.pattern(/^[0-9A-Za-z_-]{1,64}$/)) })
// An empty choice of the filter form means "all".
const blankIsAll = <A, I>(schema: Schema.Schema<A, I, never>) =>
  Schema.optional(Schema.Union(Schema.Literal(""), schema))
const ListQuery = Schema.Struct({
  state: blankIsAll(DeliveryState),
  via: blankIsAll(DeliveryVia),
  event: blankIsAll(DeliveryEvent),
  channelId: Schema.optional(Schema.String),
  page: blankIsAll(PositiveIntParam)
})
const OneQuery = Schema.Struct({ outcome: Schema.optional(Schema.String) })

const given = <A>(value: A | "" | undefined) => (value === "" ? undefined : value)

const notFound = () => notFoundPage("delivery")
const membersRead = () => notAllowedPage("Members see deliveries; the owner and Operations redeliver them.")
const NOT_UNDERSTOOD = "Not understood: choose State, Via, Event type and Channel from the form; Page is a whole " +
  "number from 1."

/** The deliveries log's pages: `/console/deliveries` (filters, 50 a page), one delivery, and `Redeliver`. */
export const DeliveryRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const deliveries = yield* Deliveries
    const channels = yield* Channels
    const signedIn = yield* makeSignedIn
    const showReceipts = Effect.map(CurrentWorkspace, (caller) => hasPermission(caller.scopes, RECEIPTS_SHOWN_TO))

    yield* router.get(
      "/console/deliveries",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        const q = yield* Effect.option(HttpServerRequest.schemaSearchParams(ListQuery))
        const filter: DeliveriesFilter = Option.match(q, {
          onNone: () => ({ page: 1 }),
          onSome: (v) => ({
            state: given(v.state),
            via: given(v.via),
            event: given(v.event),
            channelId: given(v.channelId),
            page: given(v.page) ?? 1
          })
        })
        // The page is read beside the channels: a channel of another workspace simply matches nothing there.
        const [listed, found] = yield* Effect.all([
          channels.list(person.workspaceId),
          deliveries.page(person.workspaceId, filter, filter.page, PER_PAGE)
        ], { concurrency: "unbounded" })
        const own = listed.channels.map((c) => ({ id: c.id, name: c.name }))
        const problem = Option.isNone(q)
          ? NOT_UNDERSTOOD
          : filter.channelId !== undefined && !own.some((c) => c.id === filter.channelId)
          ? "There is no such channel in this workspace."
          : undefined
        if (problem !== undefined) {
          const nothing = { ...found, deliveries: [], hasNext: false }
          return htmlPage(deliveriesPage({ person, channels: own, filter: { page: 1 }, found: nothing, problem }), 400)
        }
        return htmlPage(deliveriesPage({ person, channels: own, filter, found }))
      }))
    )

    yield* router.get(
      "/console/deliveries/:id",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        const q = yield* HttpServerRequest.schemaSearchParams(OneQuery).pipe(
          Effect.orElseSucceed((): typeof OneQuery.Type => ({}))
        )
        return yield* deliveries.get(person.workspaceId, path.value.id, yield* showReceipts).pipe(
          Effect.map(({ delivery }) =>
            htmlPage(deliveryPage({
              person,
              delivery,
              canAct: person.role !== "member",
              notice: noticeOf(q.outcome, delivery)
            }))
          ),
          Effect.catchTag("NotFound", () => Effect.succeed(notFound()))
        )
      }))
    )

    yield* router.post(
      "/console/deliveries/:id/redeliver",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        if (person.role === "member") return membersRead()
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        const id = path.value.id
        const request = yield* HttpServerRequest.HttpServerRequest
        const back = (outcome: Outcome) => seeOther(`${deliveryHref(id)}?outcome=${outcome}`, isHtmx(request))
        return yield* deliveries.redeliver(person.workspaceId, id, yield* showReceipts).pipe(
          Effect.as(back("redelivered")),
          Effect.catchTags({
            NotFound: () => Effect.succeed(notFound()),
            InvalidStateTransition: () => Effect.succeed(back("refused")),
            Conflict: () => Effect.succeed(back("busy")),
            UpstreamUnavailable: () => Effect.succeed(back("busy"))
          })
        )
      }))
    )
  })
)
