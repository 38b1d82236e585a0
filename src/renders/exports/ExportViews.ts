import { Context, Effect, Layer, Option } from "effect"
import { entityCall } from "../../domain/EntityCalls.js"
import { NotFound } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { type ExportStatus, exportStatusOf, isTerminal } from "../RenderJob.js"
import { RenderRepo } from "../RenderRepo.js"
import type { QueueEntry } from "./Export.js"
import { ExportEntity } from "./ExportEntity.js"
import type { TrackedExport } from "./ExportRecord.js"
import { ExportRepo } from "./ExportRepo.js"

const TWO_HOURS = 2 * 3600 * 1000
const KEPT_IN_QUEUE = 100

/**
 * The status an export shows. Until the export entity has recorded the end it is waiting or rendering, even when
 * the render itself already finished, so `succeeded` always comes together with `kept`.
 */
export const statusOf = (row: TrackedExport): ExportStatus => {
  if (row.status !== "queued" && row.status !== "rendering") return row.status
  const live = exportStatusOf(row.renderState)
  return live === "queued" ? "queued" : "rendering"
}

const needsSettling = (row: TrackedExport) =>
  statusOf(row) === "succeeded" && row.status === "succeeded" && !row.kept && row.keptNote === null &&
  row.discardedAt === null

const make = Effect.gen(function*() {
  const repo = yield* ExportRepo
  const renders = yield* RenderRepo
  const exportClient = yield* ExportEntity.client

  /** Not discarded; another workspace's export answers exactly like a missing one. */
  const find = (workspaceId: WorkspaceId, jobId: string) =>
    repo.find(workspaceId, jobId).pipe(
      Effect.map(Option.filter((row) => row.discardedAt === null)),
      Effect.flatMap(Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `No export ${jobId}.` })),
        onSome: Effect.succeed
      }))
    )

  /** On seeing a finished export it is kept (when it fits) — once. */
  const settled = (row: TrackedExport) =>
    needsSettling(row)
      ? entityCall(exportClient(row.id).Settle({})).pipe(
        Effect.zipRight(repo.find(row.workspaceId, row.id)),
        Effect.map(Option.getOrElse(() => row))
      )
      : Effect.succeed(row)

  const aheadOf = (row: TrackedExport) =>
    statusOf(row) === "queued" ? renders.ahead(row.workspaceId, row.renderJobId) : Effect.succeed(0)

  const poll = Effect.fn("ExportViews.poll")(function*(workspaceId: WorkspaceId, jobId: string) {
    const row = yield* settled(yield* find(workspaceId, jobId))
    return {
      status: statusOf(row),
      progress: row.progress,
      renderer: row.renderState,
      ahead: yield* aheadOf(row),
      error: row.error,
      kept: row.kept,
      keptNote: row.keptNote
    }
  })

  const entry = (row: TrackedExport, ahead: number): QueueEntry => ({
    jobId: row.id,
    templateId: row.templateId,
    templateName: row.templateName,
    variant: row.variant,
    version: row.version,
    ratio: row.ratio,
    locale: row.locale,
    brandId: row.brandId,
    brandName: row.brandName,
    status: statusOf(row),
    progress: row.progress,
    ahead,
    error: row.error,
    kept: row.kept,
    keptNote: row.keptNote,
    byteSize: row.byteSize,
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString()
  })

  /** Waiting or rendering, failed in the last two hours, and the newest 100 kept; newest first. */
  const queue = Effect.fn("ExportViews.queue")(function*(workspaceId: WorkspaceId, now: Date) {
    const rows = yield* Effect.forEach(yield* repo.list(workspaceId), settled, { concurrency: 4 })
    let kept = 0
    const shown = rows.filter((row) => {
      const status = statusOf(row)
      if (!isTerminal(row.renderState) || status === "queued" || status === "rendering") return true
      if (row.kept) return ++kept <= KEPT_IN_QUEUE
      const recent = row.finishedAt !== null && now.getTime() - row.finishedAt.getTime() < TWO_HOURS
      return recent && status !== "cancelled"
    })
    return { exports: yield* Effect.forEach(shown, (row) => Effect.map(aheadOf(row), (ahead) => entry(row, ahead))) }
  })

  /** A discarded export may be discarded again (it answers `discarded: false`); another workspace's is not found. */
  const discard = Effect.fn("ExportViews.discard")(function*(
    workspaceId: WorkspaceId,
    jobId: string,
    requestId: string
  ) {
    const row = yield* repo.find(workspaceId, jobId)
    if (Option.isNone(row)) return yield* new NotFound({ message: `No export ${jobId}.` })
    return yield* entityCall(exportClient(jobId).Discard({ requestId }))
  })

  return { find, settled, poll, queue, discard }
})

export class ExportViews extends Context.Tag("clipwright/renders/exports/ExportViews")<
  ExportViews,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(ExportViews, make)
}
