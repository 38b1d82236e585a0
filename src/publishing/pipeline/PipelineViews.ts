import { Clock, Context, Effect, Layer, Option } from "effect"
import { detailAt, NotFound, SchemaValidation } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { findFeed } from "../../feeds/FeedCatalogue.js"
import { stageOf } from "../../posts/JobStatus.js"
import { ClipLinks } from "../../renders/clips/ClipLinks.js"
import { isTerminal } from "../../renders/RenderJob.js"
import {
  type OverviewAnswer,
  type PipelineAnswer,
  type PipelineEntry,
  type PipelineJobAnswer,
  renderCountsOf,
  type RenderWait,
  statusCountsOf
} from "./PipelineAnswers.js"
import {
  type CalendarAnswer,
  type CalendarParams,
  calendarPostOf,
  channelIdsOf,
  daysOf,
  windowProblem
} from "./PipelineCalendar.js"
import type { InFlightEntry, InFlightPage } from "./PipelineInFlight.js"
import { type PipelineJobRow, PipelineQuery } from "./PipelineQuery.js"

/** SPEC Limits "Polling": the interval clients of the pipeline are asked to keep. */
export const POLL_MS = 2000
const inFlightStages = new Set(["rendering", "approval", "scheduled", "publishing"])

/** `source/format` of the shipped feed an event came from. */
const sourceOf = (feedId: string | null) =>
  feedId === null
    ? null
    : Option.match(findFeed(feedId), {
      onNone: () => null,
      onSome: ({ feed, source }) => `${source.slug}/${feed.slug}`
    })

const videos = (n: number, of: string) => `${n} ${n === 1 ? "video" : "videos"} of ${of} ahead`

/** Why a job's render waits: whose renders the fair order serves before it. */
const renderWaitOf = (row: PipelineJobRow): RenderWait | null => {
  if (row.aheadOtherWorkspaces === null || row.aheadOwnPipeline === null || row.aheadOwnExports === null) return null
  const parts = [
    row.aheadOtherWorkspaces > 0 ? videos(row.aheadOtherWorkspaces, "other workspaces") : undefined,
    row.aheadOwnPipeline > 0 ? videos(row.aheadOwnPipeline, "your own pipeline") : undefined,
    row.aheadOwnExports > 0 ? videos(row.aheadOwnExports, "your own exports") : undefined
  ].filter((part) => part !== undefined)
  return {
    reason: parts.length === 0 ? "next for a free render slot" : parts.join(", "),
    otherWorkspaces: row.aheadOtherWorkspaces,
    ownPipeline: row.aheadOwnPipeline,
    ownExports: row.aheadOwnExports
  }
}

/** What the pipeline, overview and calendar pages read; SQL only, never an entity. */
const make = Effect.gen(function*() {
  const query = yield* PipelineQuery
  const links = yield* ClipLinks

  const clipsOf = (clipId: string | null) =>
    clipId === null ? Effect.succeed([]) : Effect.map(links.video(clipId), ({ id, url }) => [{ id, url }])

  const entryOf = (row: PipelineJobRow, now: number) =>
    Effect.map(clipsOf(row.clipId), (clips): PipelineEntry => ({
      id: row.id,
      kind: "postGroup",
      state: row.status,
      templateId: row.templateId,
      brand: row.brandName,
      channelName: row.channelName,
      streamId: row.streamId,
      source: sourceOf(row.feedId),
      title: row.title,
      createdAt: row.createdAt.toISOString(),
      stageSeconds: Math.max(0, Math.floor((now - row.updatedAt.getTime()) / 1000)),
      stageSince: row.updatedAt.toISOString(),
      error: row.error,
      renderPosition: row.renderPosition,
      renderWait: renderWaitOf(row),
      clips
    }))

  const pipeline = Effect.fn("PipelineViews.pipeline")(function*(workspaceId: WorkspaceId, limit: number) {
    const now = yield* Clock.currentTimeMillis
    const [renderRows, renders, jobRows, clipCounts, jobs] = yield* Effect.all([
      query.renderCounts(workspaceId),
      query.recentRenders(workspaceId, limit),
      query.jobCounts(workspaceId),
      query.clipCounts(workspaceId),
      query.recentJobs(workspaceId, limit)
    ], { concurrency: "unbounded" })
    return {
      at: new Date(now).toISOString(),
      pollMs: POLL_MS,
      render: {
        counts: renderCountsOf(renderRows),
        inFlight: renderRows.filter((row) => !isTerminal(row.state)).reduce((sum, row) => sum + row.n, 0),
        recent: renders.map((r) => ({
          id: r.id,
          state: r.state,
          progress: r.progress,
          origin: r.origin,
          details: r.details,
          templateId: r.templateId,
          createdAt: r.submittedAt.toISOString()
        }))
      },
      posts: {
        counts: statusCountsOf(jobRows),
        clipCounts,
        inFlight: jobRows.filter((row) => inFlightStages.has(stageOf[row.status])).reduce((sum, row) => sum + row.n, 0),
        recent: yield* Effect.forEach(jobs, (row) => entryOf(row, now))
      }
    } satisfies PipelineAnswer
  })

  /**
   * The console's live pipeline: jobs per status, and a page (from 1) of the jobs still on their way with what they
   * wait for (their render's turn, a time, a retry). Paged by looking one row ahead.
   */
  const inFlight = Effect.fn("PipelineViews.inFlight")(
    function*(workspaceId: WorkspaceId, page: number, perPage: number) {
      const now = yield* Clock.currentTimeMillis
      const [jobRows, rows] = yield* Effect.all([
        query.jobCounts(workspaceId),
        query.inFlightJobs(workspaceId, perPage + 1, (page - 1) * perPage)
      ], { concurrency: "unbounded" })
      const jobs = yield* Effect.forEach(
        rows.slice(0, perPage),
        (row) =>
          Effect.map(entryOf(row, now), (entry): InFlightEntry => ({
            ...entry,
            scheduledFor: row.scheduledFor?.toISOString() ?? null,
            nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null
          }))
      )
      return {
        at: new Date(now).toISOString(),
        pollMs: POLL_MS,
        counts: statusCountsOf(jobRows),
        inFlight: jobRows.filter((row) => inFlightStages.has(stageOf[row.status])).reduce((sum, row) => sum + row.n, 0),
        jobs,
        page,
        hasNext: rows.length > perPage
      } satisfies InFlightPage
    }
  )

  /** Another workspace's job answers exactly like a missing one. */
  const job = Effect.fn("PipelineViews.job")(function*(workspaceId: WorkspaceId, id: string) {
    const now = yield* Clock.currentTimeMillis
    const row = yield* query.findJob(workspaceId, id)
    if (Option.isNone(row)) return yield* new NotFound({ message: `No job ${id}.` })
    return {
      at: new Date(now).toISOString(),
      pollMs: POLL_MS,
      job: yield* entryOf(row.value, now)
    } satisfies PipelineJobAnswer
  })

  const overview = Effect.fn("PipelineViews.overview")(function*(workspaceId: WorkspaceId) {
    const [row, renderRows, postRows] = yield* Effect.all([
      query.overview(workspaceId),
      query.renderCounts(workspaceId),
      query.postCounts(workspaceId)
    ], { concurrency: "unbounded" })
    return {
      brands: row.brands,
      channels: row.channels,
      subscriptions: row.subscriptions,
      templates: { mirrored: row.mirrored },
      ingest: { total: row.ingestTotal, last24h: row.ingestLast24h },
      renderJobs: { counts: renderCountsOf(renderRows) },
      assets: row.assets,
      posts: { counts: statusCountsOf(postRows) },
      attention: { pendingApprovals: row.pendingApprovals, deadDeliveries: row.deadDeliveries }
    } satisfies OverviewAnswer
  })

  const calendar = Effect.fn("PipelineViews.calendar")(function*(workspaceId: WorkspaceId, params: CalendarParams) {
    const { from, to } = params
    const problem = windowProblem(from, to)
    if (problem !== undefined) {
      return yield* new SchemaValidation({ message: problem, details: [detailAt(["to"], problem, "window")] })
    }
    const channelIds = channelIdsOf(params.channelIds)
    const [rows, live] = yield* Effect.all([
      query.calendarPosts(workspaceId, from, to, channelIds),
      query.liveChannels(workspaceId, channelIds)
    ], { concurrency: "unbounded" })
    const posts = rows.map(calendarPostOf)
    // A deleted channel's posts stay on the calendar, so its name is listed beside the live ones.
    const shown = new Map(live.map((c) => [c.id, c.name]))
    for (const post of posts) if (!shown.has(post.channelId)) shown.set(post.channelId, post.channelName)
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      channels: [...shown].map(([id, name]) => ({ id, name })),
      days: daysOf(from, to, posts),
      posts
    } satisfies CalendarAnswer
  })

  return { pipeline, inFlight, job, overview, calendar }
})

export class PipelineViews extends Context.Tag("clipwright/publishing/pipeline/PipelineViews")<
  PipelineViews,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(PipelineViews, make).pipe(Layer.provide(ClipLinks.layer))
}
