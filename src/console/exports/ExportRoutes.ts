import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Either, Option, Schema } from "effect"
import { CurrentWorkspace, type WorkspaceId } from "../../domain/Principal.js"
import { ExportFiles } from "../../renders/exports/ExportFiles.js"
import { Exports } from "../../renders/exports/Exports.js"
import { ExportViews } from "../../renders/exports/ExportViews.js"
import { TemplateClearance } from "../../templates/TemplateClearance.js"
import { Templates } from "../../templates/Templates.js"
import { htmlPage, PAGE_HEADERS, seeOther } from "../ConsoleResponse.js"
import { CurrentPerson, isHtmx, makeSignedIn } from "../ConsoleSession.js"
import { busyPage, notAllowedPage, notFoundPage, notUnderstoodPage } from "../Refusals.js"
import {
  choiceKey,
  type ChosenBuild,
  fieldsOf,
  parseChoice,
  problemOf,
  type StartFields,
  StartForm,
  type StartProblem,
  toVideoBody
} from "./ExportForm.js"
import { exportPage, ExportProgress, type ExportState } from "./ExportPage.js"
import { exportsPage } from "./ExportsPage.js"

const IdPath = Schema.Struct({ id: Schema.String.pipe(Schema.pattern(/^[0-9A-Za-z]{1,64}$/)) })
const ChooseQuery = Schema.Struct({ template: Schema.optional(Schema.String) })

const notFound = () => notFoundPage("export")
/** The export entity could not be asked just now (busy or moving between nodes): try again shortly. */
const busy = () => Effect.succeed(busyPage("The service is busy with this export right now. Try again shortly."))
const membersLook = () => notAllowedPage("Members see exports; the owner and Operations start them.")

/** `/console/exports`: the start form (a template's example prefilled), one export's page and its progress. */
export const ExportRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const templates = yield* Templates
    const clearance = yield* TemplateClearance
    const exports = yield* Exports
    const views = yield* ExportViews
    const files = yield* ExportFiles
    const signedInAny = yield* makeSignedIn
    // Every failure becomes a page here: one left over would reach the API's JSON error envelope instead.
    const signedIn = <R>(handler: Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>) =>
      signedInAny(handler)
    const mayStart = Effect.map(CurrentPerson, (person) => person.role !== "member")

    /** Every template and variant the operator cleared for the workspace, at its newest build. */
    const choicesOf = (workspaceId: WorkspaceId) =>
      Effect.gen(function*() {
        const cleared = yield* clearance.clearedFor(workspaceId)
        const { templates: all } = yield* templates.list()
        return all.filter((t) => cleared(t.templateId)).flatMap((t) =>
          t.variants.map((v) => ({ key: choiceKey(t.templateId, v.name), label: `${t.name} · ${v.name}` }))
        )
      })

    /** The chosen build (or the first one offered when the choice is not one of them), described as the API does. */
    const chosenOf = (choices: ReadonlyArray<{ readonly key: string }>, key: string | undefined) => {
      const pick = choices.find((c) => c.key === key) ?? choices[0]
      const choice = pick === undefined ? undefined : parseChoice(pick.key)
      if (pick === undefined || choice === undefined) return Effect.succeed(undefined)
      return templates.describe(choice.templateId, { variant: choice.variant }).pipe(
        Effect.map((d): ChosenBuild => ({
          key: pick.key,
          templateId: d.templateId,
          templateName: d.templateName,
          variant: d.variant,
          version: d.version,
          ratios: d.ratios,
          example: d.example
        })),
        Effect.orElseSucceed(() => undefined)
      )
    }

    const listPage = (key: string | undefined, sent?: { fields: StartFields; problem: StartProblem }) =>
      Effect.gen(function*() {
        const person = yield* CurrentPerson
        const choices = yield* choicesOf(person.workspaceId)
        const now = new Date(yield* Clock.currentTimeMillis)
        const { exports: recent } = yield* views.queue(person.workspaceId, now)
        return htmlPage(
          exportsPage({
            person,
            canStart: yield* mayStart,
            choices,
            chosen: yield* chosenOf(choices, key),
            fields: sent?.fields,
            problem: sent?.problem,
            recent
          }),
          sent?.problem.status ?? 200
        )
      }).pipe(Effect.catchTags({ Conflict: busy, UpstreamUnavailable: busy }))

    /** The export as its page shows it; the signed link of its video once it is done. */
    const stateOf = (workspaceId: WorkspaceId, jobId: string) =>
      Effect.gen(function*() {
        const row = yield* views.find(workspaceId, jobId)
        const poll = yield* views.poll(workspaceId, jobId)
        const base: ExportState = {
          jobId,
          name: row.title ?? `${row.templateName} ${row.variant} ${row.version}`,
          ratio: row.ratio,
          createdAt: row.createdAt.toISOString(),
          createdBy: row.createdBy,
          status: poll.status,
          progress: poll.progress,
          ahead: poll.ahead,
          error: poll.error,
          kept: poll.kept,
          keptNote: poll.keptNote
        }
        if (poll.status !== "succeeded") return base
        return yield* files.link(workspaceId, jobId).pipe(
          Effect.map((link): ExportState => ({ ...base, videoUrl: link.url })),
          // Recorded as finished a moment after the render ended: still finishing, so the page keeps asking.
          Effect.catchTag("AssetUnavailable", () => Effect.succeed<ExportState>({ ...base, status: "rendering" })),
          Effect.catchTags({
            NotFound: (gone) => Effect.succeed<ExportState>({ ...base, missing: gone.message }),
            RenderTimeout: (late) => Effect.succeed<ExportState>({ ...base, missing: late.message })
          })
        )
      })

    yield* router.get(
      "/console/exports",
      signedIn(Effect.gen(function*() {
        const q = yield* HttpServerRequest.schemaSearchParams(ChooseQuery).pipe(
          Effect.orElseSucceed((): typeof ChooseQuery.Type => ({}))
        )
        return yield* listPage(q.template)
      }))
    )

    yield* router.post(
      "/console/exports",
      signedIn(Effect.gen(function*() {
        if (!(yield* mayStart)) return membersLook()
        const form = yield* Effect.option(HttpServerRequest.schemaBodyUrlParams(StartForm))
        if (Option.isNone(form)) {
          return notUnderstoodPage("Send the form from the exports page.")
        }
        const fields = fieldsOf(form.value)
        const body = toVideoBody(fields)
        if (Either.isLeft(body)) return yield* listPage(fields.template, { fields, problem: body.left })
        const caller = yield* CurrentWorkspace
        const request = yield* HttpServerRequest.HttpServerRequest
        return yield* exports.video(caller, body.right).pipe(
          Effect.map(({ jobId }) => seeOther(`/console/exports/${encodeURIComponent(jobId)}`, isHtmx(request))),
          Effect.catchAll((refusal) => listPage(fields.template, { fields, problem: problemOf(refusal) }))
        )
      }))
    )

    yield* router.get(
      "/console/exports/:id",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        return yield* stateOf(person.workspaceId, path.value.id).pipe(
          Effect.map((state) => htmlPage(exportPage({ person, state }))),
          Effect.catchTags({ NotFound: () => Effect.succeed(notFound()), Conflict: busy, UpstreamUnavailable: busy })
        )
      }))
    )

    yield* router.get(
      "/console/exports/:id/progress",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        return yield* stateOf(person.workspaceId, path.value.id).pipe(
          Effect.map((state) => fragment(ExportProgress({ state }))),
          Effect.catchTags({ NotFound: () => Effect.succeed(notFound()), Conflict: busy, UpstreamUnavailable: busy })
        )
      }))
    )
  })
)

/** A piece of a page for htmx to swap in, with the console's headers. */
const fragment = (html: JSX.Element) => {
  if (typeof html !== "string") throw new TypeError("Console fragments render synchronously.")
  return HttpServerResponse.text(html, { contentType: "text/html; charset=utf-8", headers: PAGE_HEADERS })
}
