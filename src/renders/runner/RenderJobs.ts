import { Context, Effect, Layer, Option } from "effect"
import { NotFound } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { ClipLinks } from "../clips/ClipLinks.js"
import { RenderJobState } from "../RenderJob.js"
import type { ListedJob } from "../RenderJobRecord.js"
import type { RenderOutputRecord } from "../RenderOutputRecord.js"
import { RenderJobsQuery } from "./RenderJobsQuery.js"
import type { RenderJobPage, RenderJobsQuery as Query, RenderJobView } from "./RenderJobViews.js"

/** Every state appears in the facets, a state without jobs with 0, so the block has one shape. */
const emptyFacets = (): Record<string, number> => Object.fromEntries(RenderJobState.literals.map((state) => [state, 0]))

/** The render job log (`GET /v1/render-jobs`) and what a job's renderer was handed; reads only SQL. */
const make = Effect.gen(function*() {
  const repo = yield* RenderJobsQuery
  const links = yield* ClipLinks

  const clipOf = (clipId: string | null) => (clipId === null ? Effect.succeed(null) : links.video(clipId))

  const view = (row: ListedJob, outputs: ReadonlyArray<RenderOutputRecord>) =>
    Effect.map(clipOf(row.clipId), (clip): RenderJobView => ({
      id: row.id,
      origin: row.origin,
      details: row.printedDetails,
      postTitle: row.postTitle,
      clip,
      templateId: row.templateId,
      templateName: row.templateName,
      templateVariant: row.templateVariant,
      templateVersion: row.templateVersion,
      state: row.state,
      outputsRequested: row.outputsRequested,
      outputsSucceeded: row.outputsSucceeded,
      submittedAt: row.submittedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      error: row.error,
      priority: row.priority,
      clipsStored: row.clipsStored,
      progress: row.progress,
      outputs: outputs.map((o) => ({ ratio: o.ratio, locale: o.locale, state: o.state, error: o.error }))
    }))

  const list = Effect.fn("RenderJobs.list")(function*(workspaceId: WorkspaceId, query: Query) {
    const [rows, counts] = yield* Effect.all([
      repo.page(workspaceId, query.state, query.perPage, (query.page - 1) * query.perPage),
      repo.stateCounts(workspaceId)
    ])
    const outputs = yield* repo.outputsOf(workspaceId, rows.map((row) => row.id))
    // Map.groupBy is Node 21+; the service runs on Node 20.
    const byJob = new Map<string, Array<RenderOutputRecord>>()
    for (const o of outputs) byJob.set(o.renderJobId, [...(byJob.get(o.renderJobId) ?? []), o])
    const state = emptyFacets()
    for (const { n, state: s } of counts) state[s] = n
    const all = counts.reduce((sum, c) => sum + c.n, 0)
    return {
      jobs: yield* Effect.forEach(rows, (row) => view(row, byJob.get(row.id) ?? [])),
      total: query.state === undefined ? all : (state[query.state] ?? 0),
      all,
      page: query.page,
      perPage: query.perPage,
      facets: { state }
    } satisfies RenderJobPage
  })

  /** Another workspace's job answers exactly like a missing one. */
  const renderPackage = Effect.fn("RenderJobs.package")(function*(workspaceId: WorkspaceId, id: string) {
    const row = yield* repo.find(workspaceId, id)
    if (Option.isNone(row)) return yield* new NotFound({ message: `No render job ${id}.` })
    return { package: { ...row.value.package, jobId: row.value.id } }
  })

  return { list, renderPackage }
})

export class RenderJobs extends Context.Tag("clipwright/renders/runner/RenderJobs")<
  RenderJobs,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(RenderJobs, make).pipe(Layer.provide(ClipLinks.layer))
}
