import { HttpApiBuilder, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import type { WorkspaceId } from "../../domain/Principal.js"
import { Identity } from "../../identity/Identity.js"
import { Quotas } from "../../renders/allowance/Quotas.js"
import { htmlPage, seeOther } from "../ConsoleResponse.js"
import { CurrentPerson, isHtmx, makeSignedIn } from "../ConsoleSession.js"
import { refusedPage } from "../SignInPages.js"
import { type Outcome, type WorkspaceFacts, workspacePage } from "./WorkspacePage.js"

type Action = "buy" | "keep" | "drop"

const MAX_RENDERS = 1_000_000
const RendersForm = Schema.Struct({ renders: Schema.optional(Schema.String) })
const DoneQuery = Schema.Struct({
  done: Schema.optional(Schema.Literal("buy", "keep", "drop")),
  renders: Schema.optional(Schema.NumberFromString)
})

const plural = (n: number) => `${n.toLocaleString("en-US")} extra render${n === 1 ? "" : "s"}`

const doneMessage = (action: Action, renders: number, nextPeriodStart: string) => {
  switch (action) {
    case "buy":
      return `${plural(renders)} bought for this month.`
    case "keep":
      return `${plural(renders)} kept for the month from ${nextPeriodStart.slice(0, 10)}.`
    case "drop":
      return `${plural(renders)} dropped.`
  }
}

/** The field as the API's `renders`: a whole number from 1 to 1,000,000; empty means all (keep and drop only). */
const rendersOf = (action: Action, raw: string | undefined): Option.Option<number | undefined> => {
  const text = (raw ?? "").trim()
  if (text === "") return action === "buy" ? Option.none() : Option.some(undefined)
  if (!/^\d{1,7}$/.test(text)) return Option.none()
  const n = Number(text)
  return n >= 1 && n <= MAX_RENDERS ? Option.some(n) : Option.none()
}

const ownerOnly = () =>
  htmlPage(
    refusedPage("Not allowed", "Only the workspace's owner buys, keeps and drops extra renders."),
    403
  )

/** `/console/workspace` (GET; the switcher POSTs to the same address) and the owner's buy, keep and drop. */
export const WorkspaceRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const quotas = yield* Quotas
    const identity = yield* Identity
    const signedInAny = yield* makeSignedIn
    // Every failure becomes a page here: one left over would reach the API's JSON error envelope instead.
    const signedIn = <R>(handler: Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>) =>
      signedInAny(handler)

    const factsOf = (workspaceId: WorkspaceId) =>
      Effect.all({
        overview: quotas.overview(workspaceId),
        nextPeriod: quotas.nextPeriod(workspaceId),
        people: identity.listMembers(workspaceId),
        webhookUrl: Effect.map(identity.requireWorkspace(workspaceId), (w) => w.webhookUrl)
      }, { concurrency: "unbounded" }).pipe(Effect.map((facts): WorkspaceFacts => facts))

    const page = (outcome: Outcome | undefined, status = 200) =>
      Effect.gen(function*() {
        const person = yield* CurrentPerson
        return htmlPage(workspacePage({ person, facts: yield* factsOf(person.workspaceId), outcome }), status)
      }).pipe(
        Effect.catchTag(
          "NotFound",
          () => Effect.succeed(htmlPage(refusedPage("Not found", "This workspace is gone."), 404))
        )
      )

    yield* router.get(
      "/console/workspace",
      signedIn(Effect.gen(function*() {
        const q = yield* HttpServerRequest.schemaSearchParams(DoneQuery).pipe(
          Effect.orElseSucceed((): typeof DoneQuery.Type => ({}))
        )
        const person = yield* CurrentPerson
        if (q.done === undefined || q.renders === undefined) return yield* page(undefined)
        const next = yield* Effect.option(quotas.nextPeriod(person.workspaceId))
        const nextStart = Option.match(next, { onNone: () => "", onSome: (p) => p.periodStart })
        const outcome = { message: doneMessage(q.done, q.renders, nextStart), refused: false }
        return yield* page(outcome)
      }))
    )

    const change = (action: Action) =>
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        if (person.role !== "owner") return ownerOnly()
        const form = yield* Effect.option(HttpServerRequest.schemaBodyUrlParams(RendersForm))
        const renders = Option.flatMap(form, (f) => rendersOf(action, f.renders))
        if (Option.isNone(renders)) {
          const message = action === "buy"
            ? "Enter how many extra renders to buy: a whole number from 1 to 1,000,000."
            : "Enter a whole number of extra renders from 1 to 1,000,000, or leave the field empty for all."
          return yield* page({ message, refused: true }, 400)
        }
        const workspaceId = person.workspaceId
        const request = yield* HttpServerRequest.HttpServerRequest
        return yield* Effect.gen(function*() {
          // Keep and drop with the field empty take all unused: what they took shows in this month's extra renders.
          const before = yield* quotas.quota(workspaceId)
          const answer = action === "buy"
            ? yield* quotas.buy(workspaceId, renders.value ?? 0)
            : action === "keep"
            ? yield* quotas.keep(workspaceId, renders.value)
            : yield* quotas.drop(workspaceId, renders.value)
          const moved = action === "buy" ? renders.value ?? 0 : before.extra - answer.quota.extra
          return seeOther(`/console/workspace?done=${action}&renders=${moved}`, isHtmx(request))
        }).pipe(
          Effect.catchTags({
            Conflict: (refusal) => page({ message: refusal.message, refused: true }, 409),
            NotFound: () => Effect.succeed(htmlPage(refusedPage("Not found", "This workspace is gone."), 404))
          })
        )
      }))

    yield* router.post("/console/workspace/buy", change("buy"))
    yield* router.post("/console/workspace/keep", change("keep"))
    yield* router.post("/console/workspace/drop", change("drop"))
  })
)
