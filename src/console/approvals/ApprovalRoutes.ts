import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import { Channels } from "../../channels/Channels.js"
import { ClipStills } from "../../delivery/email/ClipStills.js"
import { actorOf, CurrentWorkspace } from "../../domain/Principal.js"
import { PositiveIntParam } from "../../http/Paging.js"
import { Approvals } from "../../publishing/approvals/Approvals.js"
import { htmlPage, PAGE_HEADERS, seeOther } from "../ConsoleResponse.js"
import { CurrentPerson, isHtmx, makeSignedIn } from "../ConsoleSession.js"
import { busyPage, notAllowedPage, notFoundPage, notUnderstoodPage } from "../Refusals.js"
import { refusedPage } from "../SignInPages.js"
import { approvalPage, type ApprovalsFilter, approvalsPage } from "./ApprovalsPage.js"

const PER_PAGE = 25
const Id = Schema.String.pipe(Schema.pattern(/^[0-9A-Za-z]{1,64}$/))
const IdPath = Schema.Struct({ id: Id })
const ListQuery = Schema.Struct({
  state: Schema.optional(Schema.Literal("PENDING", "APPROVED", "REJECTED", "ANY")),
  channelId: Schema.optional(Schema.String),
  page: Schema.optional(PositiveIntParam),
  approved: Schema.optional(PositiveIntParam),
  rejected: Schema.optional(PositiveIntParam),
  skipped: Schema.optional(PositiveIntParam)
})
const Note = Schema.optional(Schema.String.pipe(Schema.maxLength(1000)))
const Back = Schema.optional(Schema.String)
const DecideForm = Schema.Struct({ state: Schema.Literal("APPROVED", "REJECTED"), note: Note, back: Back })
const BulkForm = Schema.Struct({
  ids: Schema.optional(Schema.Union(Schema.String, Schema.Array(Schema.String))),
  note: Note,
  back: Back
})

/** A decision returns to the list or the approval it was made on, never elsewhere. */
const backTo = (back: string | undefined) =>
  back !== undefined && /^\/console\/approvals(?:[/?][^\s\\]*)?$/.test(back) && !back.startsWith("//")
    ? back
    : "/console/approvals"

const withCounts = (back: string, counts: Record<string, number>) => {
  const url = new URL(back, "http://console")
  for (const [key, n] of Object.entries(counts)) if (n > 0) url.searchParams.set(key, String(n))
  return `${url.pathname}${url.search}`
}

const noticeOf = (q: typeof ListQuery.Type) => {
  const parts = [
    q.approved === undefined ? "" : `${q.approved} approved`,
    q.rejected === undefined ? "" : `${q.rejected} rejected`,
    q.skipped === undefined ? "" : `${q.skipped} not decided: decided already or gone`
  ].filter((part) => part !== "")
  return parts.length === 0 ? undefined : `${parts.join(", ")}.`
}

const busy = () => busyPage("The service is busy or this approval is being decided right now. Try again shortly.")

const notFound = () => notFoundPage("approval")
const membersRead = () => notAllowedPage("Members see approvals; the owner and Operations decide them.")

/** The reviewer's pages: `/console/approvals` (a page of approvals, filters), one approval, its still, decisions. */
export const ApprovalRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const approvals = yield* Approvals
    const channels = yield* Channels
    const stills = yield* ClipStills
    const signedIn = yield* makeSignedIn
    const mayDecide = Effect.map(CurrentPerson, (person) => person.role !== "member")

    yield* router.get(
      "/console/approvals",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        const q = yield* HttpServerRequest.schemaSearchParams(ListQuery).pipe(
          Effect.orElseSucceed((): typeof ListQuery.Type => ({}))
        )
        const own = (yield* channels.list(person.workspaceId)).channels.map((c) => ({ id: c.id, name: c.name }))
        const channelId = own.some((c) => c.id === q.channelId) ? q.channelId : undefined
        const filter: ApprovalsFilter = { state: q.state ?? "PENDING", channelId, page: q.page ?? 1 }
        const found = yield* approvals.list(person.workspaceId, {
          state: filter.state === "ANY" ? undefined : filter.state,
          channelId,
          page: filter.page,
          perPage: PER_PAGE
        })
        return htmlPage(
          approvalsPage({ person, canDecide: yield* mayDecide, found, channels: own, filter, notice: noticeOf(q) })
        )
      }))
    )

    yield* router.post(
      "/console/approvals",
      signedIn(Effect.gen(function*() {
        if (!(yield* mayDecide)) return membersRead()
        const form = yield* Effect.option(HttpServerRequest.schemaBodyUrlParams(BulkForm))
        if (Option.isNone(form)) {
          return notUnderstoodPage("Send the form from the approvals page.")
        }
        const ids = form.value.ids === undefined
          ? []
          : typeof form.value.ids === "string"
          ? [form.value.ids]
          : form.value.ids
        const caller = yield* CurrentWorkspace
        const note = form.value.note?.trim() === "" ? undefined : form.value.note
        const outcomes = yield* Effect.forEach(ids.slice(0, PER_PAGE * 4), (id) =>
          approvals.decide(caller.workspaceId, id, { state: "APPROVED", note }, actorOf(caller)).pipe(
            Effect.as(true),
            Effect.catchTags({
              NotFound: () =>
                Effect.succeed(false),
              InvalidStateTransition: () => Effect.succeed(false),
              Conflict: () => Effect.succeed(false),
              UpstreamUnavailable: () => Effect.succeed(false)
            })
          ))
        const approved = outcomes.filter((ok) =>
          ok
        ).length
        const request = yield* HttpServerRequest.HttpServerRequest
        return seeOther(
          withCounts(backTo(form.value.back), { approved, skipped: outcomes.length - approved }),
          isHtmx(request)
        )
      }))
    )

    yield* router.get(
      "/console/approvals/:id",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        const q = yield* HttpServerRequest.schemaSearchParams(ListQuery).pipe(
          Effect.orElseSucceed((): typeof ListQuery.Type => ({}))
        )
        return yield* approvals.get(person.workspaceId, path.value.id).pipe(
          Effect.map((approval) =>
            htmlPage(approvalPage({ person, canDecide: person.role !== "member", approval, notice: noticeOf(q) }))
          ),
          Effect.catchTag("NotFound", () => Effect.succeed(notFound()))
        )
      }))
    )

    yield* router.post(
      "/console/approvals/:id",
      signedIn(Effect.gen(function*() {
        if (!(yield* mayDecide)) return membersRead()
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        const form = yield* Effect.option(HttpServerRequest.schemaBodyUrlParams(DecideForm))
        if (Option.isNone(form)) {
          return htmlPage(
            refusedPage("Not understood", "Choose Approve or Reject; a note holds 1,000 characters."),
            400
          )
        }
        const caller = yield* CurrentWorkspace
        const { back, note, state } = form.value
        const request = yield* HttpServerRequest.HttpServerRequest
        return yield* approvals.decide(
          caller.workspaceId,
          path.value.id,
          { state, note: note?.trim() === "" ? undefined : note },
          actorOf(caller)
        ).pipe(
          Effect.map(() =>
            seeOther(
              withCounts(backTo(back), state === "APPROVED" ? { approved: 1 } : { rejected: 1 }),
              isHtmx(request)
            )
          ),
          Effect.catchTags({
            NotFound: () => Effect.succeed(notFound()),
            InvalidStateTransition: () =>
              Effect.succeed(seeOther(withCounts(backTo(back), { skipped: 1 }), isHtmx(request))),
            Conflict: () => Effect.succeed(busy()),
            UpstreamUnavailable: () => Effect.succeed(busy())
          })
        )
      }))
    )

    yield* router.get(
      "/console/approvals/:id/still",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        const approval = yield* Effect.option(approvals.get(person.workspaceId, path.value.id))
        const clipId = Option.flatMap(approval, (a) => Option.fromNullable(a.posts[0]?.assets[0]?.assetId))
        if (Option.isNone(clipId)) return notFound()
        const still = yield* stills.stillOf(person.workspaceId, clipId.value)
        if (Option.isNone(still)) return notFound()
        // A clip never changes under its id: the browser may keep its still.
        return HttpServerResponse.uint8Array(still.value.bytes, {
          contentType: still.value.mimeType,
          headers: { ...PAGE_HEADERS, "cache-control": "private, max-age=86400" }
        })
      }))
    )
  })
)
