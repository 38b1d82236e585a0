import { HttpApiBuilder, HttpRouter, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Either, Option, Schema } from "effect"
import type { SignedIn } from "../../people/People.js"
import { PostLists } from "../../queues/PostLists.js"
import { TemplateClearance } from "../../templates/TemplateClearance.js"
import { listTemplates } from "../../templates/TemplateRegistry.js"
import { personZone } from "../calendar/ZoneTime.js"
import { htmlPage, seeOther } from "../ConsoleResponse.js"
import { CurrentPerson, isHtmx, makeSignedIn } from "../ConsoleSession.js"
import { busyPage, notAllowedPage, notFoundPage } from "../Refusals.js"
import { refusedPage } from "../SignInPages.js"
import { listPage } from "./ListPage.js"
import { listsPage } from "./ListsPage.js"
import type { FieldErrors, ScheduleValues } from "./ScheduleForm.js"
import { blankValues, errorsOfRefusal, readSchedule, ScheduleFormBody, valuesOf } from "./ScheduleInput.js"

const Id = Schema.String.pipe(Schema.pattern(/^[0-9A-Za-z]{1,64}$/))
const IdPath = Schema.Struct({ id: Id })
const PackagePath = Schema.Struct({ id: Id, packageId: Id })
const NoticeQuery = Schema.Struct({
  scheduled: Schema.optional(Schema.String),
  cancelled: Schema.optional(Schema.String)
})

const notFound = () => notFoundPage("post list")
const membersRead = () => notAllowedPage("Members see post lists; the owner and Operations schedule and cancel.")
const busy = () => busyPage("The service is busy or this list is changing right now. Try again shortly.")

const noticeOf = (q: typeof NoticeQuery.Type) =>
  q.scheduled !== undefined
    ? `Scheduled "${q.scheduled.slice(0, 120)}".`
    : q.cancelled !== undefined
    ? `Cancelled "${q.cancelled.slice(0, 120)}".`
    : undefined

/** The post lists: `/console/lists`, a list's page with its schedule form, scheduling and cancelling a post. */
export const ListRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const lists = yield* PostLists
    const clearance = yield* TemplateClearance
    const signedIn = yield* makeSignedIn
    const canAct = (person: SignedIn) => person.role !== "member"

    const templatesFor = (person: SignedIn) =>
      Effect.map(clearance.clearedFor(person.workspaceId), (cleared) => listTemplates().filter((t) => cleared(t.id)))

    /** A list's page: with the form as sent and its errors (400), or fresh. */
    const showList = (
      person: SignedIn,
      queueId: string,
      form?: { readonly values: ScheduleValues; readonly errors: FieldErrors }
    ) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const queue = (yield* lists.list(person.workspaceId)).queues.find((q) => q.id === queueId)
        if (queue === undefined) return notFound()
        const templates = yield* templatesFor(person)
        const q = yield* HttpServerRequest.schemaSearchParams(NoticeQuery).pipe(
          Effect.orElseSucceed((): typeof NoticeQuery.Type => ({}))
        )
        const page = listPage({
          person,
          queue,
          zone: personZone(request).zone,
          canAct: canAct(person),
          notice: form === undefined ? noticeOf(q) : undefined,
          form: { templates, values: form?.values ?? blankValues(templates), errors: form?.errors ?? {} }
        })
        return htmlPage(page, form === undefined ? 200 : 400)
      })

    yield* router.get(
      "/console/lists",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        const request = yield* HttpServerRequest.HttpServerRequest
        const { queues } = yield* lists.list(person.workspaceId)
        return htmlPage(listsPage({ person, queues, zone: personZone(request).zone }))
      }))
    )

    yield* router.get(
      "/console/lists/:id",
      signedIn(Effect.gen(function*() {
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        return yield* showList(yield* CurrentPerson, path.value.id)
      }))
    )

    yield* router.post(
      "/console/lists/:id/packages",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        if (!canAct(person)) return membersRead()
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        const queueId = path.value.id
        const request = yield* HttpServerRequest.HttpServerRequest
        const body = yield* Effect.option(HttpServerRequest.schemaBodyUrlParams(ScheduleFormBody))
        const values = valuesOf(Option.getOrElse(body, () => ({})))
        const read = readSchedule(values, personZone(request).zone, yield* Clock.currentTimeMillis)
        if (Either.isLeft(read)) return yield* showList(person, queueId, { values, errors: read.left })
        const refused = (fallback: "templateId" | "scheduledFor") => (e: Parameters<typeof errorsOfRefusal>[0]) =>
          showList(person, queueId, { values, errors: errorsOfRefusal(e, fallback) })
        return yield* lists.addPackage(person.workspaceId, queueId, read.right).pipe(
          Effect.map((): HttpServerResponse.HttpServerResponse =>
            seeOther(
              `/console/lists/${encodeURIComponent(queueId)}?scheduled=${encodeURIComponent(read.right.title)}`,
              isHtmx(request)
            )
          ),
          Effect.catchTags({
            NotFound: () => Effect.succeed(notFound()),
            SchemaValidation: refused("scheduledFor"),
            UnknownTemplate: refused("templateId"),
            TemplateNotApproved: refused("templateId"),
            Conflict: () => Effect.succeed(busy()),
            UpstreamUnavailable: () => Effect.succeed(busy())
          })
        )
      }))
    )

    yield* router.post(
      "/console/lists/:id/packages/:packageId/cancel",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        if (!canAct(person)) return membersRead()
        const path = yield* Effect.option(HttpRouter.schemaPathParams(PackagePath))
        if (Option.isNone(path)) return notFound()
        const { id, packageId } = path.value
        const request = yield* HttpServerRequest.HttpServerRequest
        const back = `/console/lists/${encodeURIComponent(id)}`
        return yield* lists.changePackage(person.workspaceId, id, packageId, { state: "CANCELLED" }).pipe(
          Effect.map(({ package: pkg }) =>
            seeOther(`${back}?cancelled=${encodeURIComponent(pkg.title)}`, isHtmx(request))
          ),
          Effect.catchTags({
            NotFound: () => Effect.succeed(notFound()),
            InvalidStateTransition: (e) =>
              Effect.succeed(htmlPage(refusedPage("Not scheduled any more", e.message), 409)),
            Conflict: () => Effect.succeed(busy()),
            UpstreamUnavailable: () => Effect.succeed(busy())
          })
        )
      }))
    )
  })
)
