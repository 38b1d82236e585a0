import { HttpApiBuilder, HttpRouter, HttpServerRequest } from "@effect/platform"
import { Clock, Effect, Either, Option, Schema } from "effect"
import type { Conflict, NotFound, UpstreamUnavailable } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { JobActions } from "../../publishing/actions/JobActions.js"
import { PipelineViews } from "../../publishing/pipeline/PipelineViews.js"
import { JobStories } from "../../publishing/views/JobStories.js"
import { htmlPage, seeOther } from "../ConsoleResponse.js"
import { CurrentPerson, isHtmx, makeSignedIn } from "../ConsoleSession.js"
import { jobHref } from "../pipeline/PipelinePage.js"
import { busyPage, notAllowedPage, notFoundPage, notUnderstoodPage } from "../Refusals.js"
import { type Done, noticeOf, toUpdateBody, type UpdateFields, UpdateForm } from "./JobOutcome.js"
import { jobPage } from "./JobPage.js"

const IdPath = Schema.Struct({ id: Schema.String.pipe(Schema.pattern(/^[0-9A-Za-z]{1,64}$/)) })
const DoneQuery = Schema.Struct({ done: Schema.optional(Schema.String) })

const notFound = () => notFoundPage("job")
const membersRead = () => notAllowedPage("Members see jobs; the owner and Operations act on them.")
const busy = () => Effect.succeed(busyPage("The service is busy with this job right now. Try again shortly."))

/** A job's page (`/console/jobs/{id}`) and its actions, which go through the same service as `/v1/jobs/{id}/…`. */
export const JobRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const stories = yield* JobStories
    const views = yield* PipelineViews
    const actions = yield* JobActions
    const signedIn = yield* makeSignedIn

    /** The page as it stands, with what the last action did or what was wrong with the update typed. */
    const page = (
      workspaceId: WorkspaceId,
      id: string,
      options: {
        readonly done?: string | undefined
        readonly typed?: UpdateFields | undefined
        readonly problem?: string | undefined
        readonly status?: number | undefined
      } = {}
    ) =>
      Effect.gen(function*() {
        const person = yield* CurrentPerson
        const [story, { job: entry }] = yield* Effect.all([stories.story(workspaceId, id), views.job(workspaceId, id)])
        const canAct = person.role !== "member"
        // A problem with a typed update is shown above the form's fields when the form is there; else at the top.
        const inForm = options.typed !== undefined && story.updatable && canAct
        const problem = options.problem
        return htmlPage(
          jobPage({
            person,
            story,
            entry,
            now: yield* Clock.currentTimeMillis,
            canAct,
            notice: problem === undefined || inForm ? noticeOf(options.done, story) : { text: problem, failed: true },
            typed: options.typed,
            problem: inForm ? problem : undefined
          }),
          options.status ?? 200
        )
      }).pipe(Effect.catchTag("NotFound", () => Effect.succeed(notFound())))

    yield* router.get(
      "/console/jobs/:id",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        const q = yield* HttpServerRequest.schemaSearchParams(DoneQuery).pipe(
          Effect.orElseSucceed((): typeof DoneQuery.Type => ({}))
        )
        return yield* page(person.workspaceId, path.value.id, { done: q.done })
      }))
    )

    /** An action of the owner or Operations: refused for members, 404 for another workspace's job, 409 shown. */
    const act = (
      name: string,
      run: (
        workspaceId: WorkspaceId,
        id: string
      ) => Effect.Effect<string, NotFound | Conflict | UpstreamUnavailable>
    ) =>
      router.post(
        `/console/jobs/:id/${name}`,
        signedIn(Effect.gen(function*() {
          const person = yield* CurrentPerson
          if (person.role === "member") return membersRead()
          const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
          if (Option.isNone(path)) return notFound()
          const id = path.value.id
          const request = yield* HttpServerRequest.HttpServerRequest
          return yield* run(person.workspaceId, id).pipe(
            Effect.map((location) => seeOther(location, isHtmx(request))),
            Effect.catchTags({
              NotFound: () => Effect.succeed(notFound()),
              UpstreamUnavailable: busy,
              Conflict: (e) => page(person.workspaceId, id, { problem: `Not done: ${e.message}`, status: 409 })
            })
          )
        }))
      )

    const back = (id: string, done: Done) => `${jobHref(id)}?done=${done}`

    yield* act("cancel", (ws, id) => Effect.as(actions.cancel(ws, id), back(id, "cancelled")))
    yield* act("repost", (ws, id) => Effect.map(actions.repost(ws, id), (r) => back(r.postGroupId, "reposted")))
    yield* act("delete", (ws, id) => Effect.as(actions.remove(ws, id), back(id, "deleted")))

    yield* router.post(
      "/console/jobs/:id/update",
      signedIn(Effect.gen(function*() {
        const person = yield* CurrentPerson
        if (person.role === "member") return membersRead()
        const path = yield* Effect.option(HttpRouter.schemaPathParams(IdPath))
        if (Option.isNone(path)) return notFound()
        const id = path.value.id
        const form = yield* Effect.option(HttpServerRequest.schemaBodyUrlParams(UpdateForm))
        if (Option.isNone(form)) {
          return notUnderstoodPage("Send the form from the job's page.")
        }
        const typed = form.value
        const body = toUpdateBody(typed)
        if (Either.isLeft(body)) return yield* page(person.workspaceId, id, { typed, problem: body.left, status: 400 })
        if (Object.keys(body.right).length === 0) {
          return yield* page(person.workspaceId, id, {
            typed,
            problem: "Change the title, caption or hashtags.",
            status: 400
          })
        }
        const request = yield* HttpServerRequest.HttpServerRequest
        return yield* actions.update(person.workspaceId, id, body.right).pipe(
          Effect.as(seeOther(back(id, "updated"), isHtmx(request))),
          Effect.catchTags({
            NotFound: () => Effect.succeed(notFound()),
            UpstreamUnavailable: busy,
            Conflict: (e) => page(person.workspaceId, id, { typed, problem: `Not done: ${e.message}`, status: 409 })
          })
        )
      }))
    )
  })
)
