import { Context, Effect, Fiber, FiberRef, Layer } from "effect"
import { BrandLooks } from "../../brands/BrandLooks.js"
import type { BrandRef } from "../../brands/BrandLooks.js"
import { digestOf } from "../../domain/Digest.js"
import { entityCall } from "../../domain/EntityCalls.js"
import { detailAt, SchemaValidation } from "../../domain/Errors.js"
import { actorOf, type Principal } from "../../domain/Principal.js"
import { CurrentRequestId } from "../../domain/RequestId.js"
import { ulidForRequest } from "../../domain/Ulid.js"
import { durationMsOf } from "../../drawing/Scene.js"
import type { ResolvedBuild } from "../../templates/format/Template.js"
import { TemplateClearance } from "../../templates/TemplateClearance.js"
import { WorkspaceAllowanceEntity } from "../allowance/WorkspaceAllowanceEntity.js"
import type { RenderPackage } from "../RenderJob.js"
import { type BatchBody, MAX_BATCH, type VideoBody } from "./Export.js"
import { type BuildRequest, checkExport, resolveExportBuild } from "./ExportChecks.js"
import { ExportEntity } from "./ExportEntity.js"

const DEFAULT_LOCALE = "en"

/** The package records the brand's id and name; its look is resolved from the id when the clip is drawn. */
const packageFor = (
  resolved: ResolvedBuild,
  body: BuildRequest,
  ratio: string,
  locale: string,
  brand: BrandRef | null
): RenderPackage => ({
  template: {
    id: resolved.template.id,
    name: resolved.template.name,
    variant: resolved.variant.name,
    version: resolved.build.version
  },
  content: body.data,
  brand: brand === null ? null : { id: brand.id, name: brand.name },
  channel: null,
  options: { outputs: [{ ratio, locale }], priority: false }
})

const make = Effect.gen(function*() {
  const scope = yield* Effect.scope
  const allowance = yield* WorkspaceAllowanceEntity.client
  const exports = yield* ExportEntity.client
  const looks = yield* BrandLooks
  const clearance = yield* TemplateClearance
  const check = (...args: Parameters<typeof checkExport>) =>
    checkExport(...args).pipe(
      Effect.provideService(BrandLooks, looks),
      Effect.provideService(TemplateClearance, clearance)
    )

  const timing = Effect.fn("Exports.timing")(function*(body: BuildRequest) {
    const resolved = yield* resolveExportBuild(body, false)
    yield* check(resolved, body, [])
    const { duration, fps } = resolved.build
    return { fps, frames: duration.frames, durationMs: durationMsOf({ fps, frames: duration.frames }) }
  })

  /**
   * The job ids of a request's videos: a retry (same x-request-id, same body) draws the same ids, so it is answered
   * with the first call's jobs and counted once; another body under a reused x-request-id is another batch.
   */
  const jobsFor = (
    principal: Principal,
    body: BuildRequest,
    outputs: ReadonlyArray<{ ratio: string; locale: string }>
  ) =>
    Effect.map(FiberRef.get(CurrentRequestId), (requestId) => {
      const prefix = `export:${principal.workspaceId}:${digestOf({ body, outputs })}`
      return outputs.map((o) => ({ ...o, jobId: ulidForRequest(requestId, `${prefix}:${o.ratio}:${o.locale}`) }))
    })

  /** Verifies everything for every output, reserves the allowance for all, then starts them one by one. */
  const start = Effect.fn("Exports.start")(function*(
    principal: Principal,
    body: BuildRequest & { readonly title?: string | undefined },
    outputs: ReadonlyArray<{ ratio: string; locale: string }>
  ) {
    const resolved = yield* resolveExportBuild(body, true)
    const { brand } = yield* check(resolved, body, outputs, principal.workspaceId)
    const jobs = yield* jobsFor(principal, body, outputs)
    const renderJobIds = jobs.map((j) => j.jobId)
    // Asked under what it reserves. Once begun it runs on to its end on a fiber of its own, even when the client hangs
    // up: the answers the cluster keeps for these ids (and hands to a retry) are then never "interrupted".
    const launch = Effect.gen(function*() {
      yield* entityCall(
        allowance(principal.workspaceId).Reserve({ requestId: `export:${digestOf(renderJobIds)}`, renderJobIds })
      )
      const started: Array<{ jobId: string; ratio: string; locale: string }> = []
      let problem: string | null = null
      for (const job of jobs) {
        const created = yield* exports(job.jobId).Create({
          workspaceId: principal.workspaceId,
          createdBy: actorOf(principal),
          templateName: resolved.template.name,
          brandName: brand?.name ?? null,
          title: body.title ?? null,
          package: packageFor(resolved, body, job.ratio, job.locale, brand)
        }).pipe(Effect.either)
        if (created._tag === "Left") {
          // The reservations of jobs that never started go back.
          for (const left of jobs.slice(started.length)) {
            yield* allowance(principal.workspaceId).Settle({ renderJobId: left.jobId, outcome: "release" }, {
              discard: true
            })
              .pipe(Effect.ignore)
          }
          problem =
            `${started.length} of ${jobs.length} started; the renderers refused the rest (${created.left._tag}).`
          break
        }
        started.push({ jobId: job.jobId, ratio: job.ratio, locale: job.locale })
      }
      return { started, problem }
    })
    return yield* Fiber.join(yield* Effect.forkIn(launch, scope))
  })

  const video = (principal: Principal, body: VideoBody) =>
    start(principal, body, [{ ratio: body.ratio, locale: body.locale ?? DEFAULT_LOCALE }]).pipe(
      Effect.flatMap(({ problem, started }) =>
        started[0] === undefined
          ? Effect.dieMessage(problem ?? "export did not start")
          : Effect.succeed({ jobId: started[0].jobId })
      )
    )

  const batch = (principal: Principal, body: BatchBody) => {
    const locales = body.locales ?? [DEFAULT_LOCALE]
    const outputs = [...new Set(body.ratios)].flatMap((ratio) =>
      [...new Set(locales)].map((locale) => ({ ratio, locale }))
    )
    if (outputs.length > MAX_BATCH) {
      return Effect.fail(
        new SchemaValidation({
          message: `A batch draws at most ${MAX_BATCH} videos (ratios × locales); this one asks for ${outputs.length}.`,
          details: [detailAt(["ratios"], `ratios × locales must be at most ${MAX_BATCH}`, "maxItems")]
        })
      )
    }
    return start(principal, body, outputs).pipe(Effect.map(({ problem, started }) => ({ jobs: started, problem })))
  }

  return { timing, video, batch }
})

export class Exports
  extends Context.Tag("clipwright/renders/exports/Exports")<Exports, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.scoped(Exports, make)
}
