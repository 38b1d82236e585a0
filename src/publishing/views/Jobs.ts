import { Context, Effect, Layer } from "effect"
import { surfaces } from "../../channels/Surfaces.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { JobStage, JobStatus, stageOf, statusesOf } from "../../posts/JobStatus.js"
import { ClipLinks } from "../../renders/clips/ClipLinks.js"
import { ApprovalFilter, type JobsParams, platforms, type PostsParams } from "./JobsParams.js"
import { JobsQuery } from "./JobsQuery.js"
import { type Asset, type Clip, type JobPage, jobView, type PostPage, postView } from "./JobViews.js"

/** Every key listed, 0 when nothing has it, so a block always has one shape. */
const zeroes = (keys: ReadonlyArray<string>): Record<string, number> => Object.fromEntries(keys.map((k) => [k, 0]))

const platformOfSurface = (surface: string) => surfaces.find((s) => s.surface === surface)?.platform ?? surface

const stageOfStatus = (status: string) => (stageOf as Record<string, JobStage | undefined>)[status]

/** The jobs log (`GET /v1/jobs`) and the posts log (`GET /v1/posts`); reads only SQL, never wakes an entity. */
const make = Effect.gen(function*() {
  const query = yield* JobsQuery
  const links = yield* ClipLinks
  const clipOf = (clipId: string | null): Effect.Effect<Clip | null> =>
    clipId === null ? Effect.succeed(null) : links.video(clipId)
  const assetOf = (clipId: string | null): Effect.Effect<Asset | null> =>
    clipId === null ? Effect.succeed(null) : links.asset(clipId)

  const jobs = Effect.fn("Jobs.list")(function*(workspaceId: WorkspaceId, params: JobsParams) {
    const { approval, brandId, channelId, origin, page, perPage, platform, q, since, stage, until } = params
    const scope = { channelId, brandId, since, until, q }
    const scoped = Object.values(scope).some((v) => v !== undefined)
    const filter = {
      ...scope,
      statuses: stage === undefined ? undefined : statusesOf(stage),
      surfaces: platform === undefined
        ? undefined
        : surfaces.filter((s) => s.platform === platform).map((s) => s.surface),
      origin,
      approval
    }
    const [rows, counts, all] = yield* Effect.all([
      query.jobs(workspaceId, filter, perPage, (page - 1) * perPage),
      query.jobCounts(workspaceId, scope),
      scoped ? query.countJobs(workspaceId) : Effect.succeed(undefined)
    ], { concurrency: "unbounded" })

    const facets = {
      stage: zeroes(JobStage.literals),
      approval: zeroes(ApprovalFilter.literals),
      platform: zeroes(platforms),
      origin: zeroes(["shipped", "custom", "manual"])
    }
    // `stages` count under every filter but the stage itself, so each stage tells what choosing it would list.
    const stages = zeroes(JobStage.literals)
    let unstaged = 0
    let total = 0
    for (const c of counts) {
      const rowStage = stageOfStatus(c.status)
      const rowPlatform = platformOfSurface(c.surface)
      if (rowStage !== undefined) facets.stage[rowStage]! += c.n
      facets.approval[c.approval] = (facets.approval[c.approval] ?? 0) + c.n
      facets.platform[rowPlatform] = (facets.platform[rowPlatform] ?? 0) + c.n
      facets.origin[c.origin]! += c.n
      const otherFilters = (platform === undefined || rowPlatform === platform) &&
        (origin === undefined || c.origin === origin) && (approval === undefined || c.approval === approval)
      if (!otherFilters) continue
      if (rowStage === undefined) unstaged += c.n
      else stages[rowStage]! += c.n
      if (stage === undefined || rowStage === stage) total += c.n
    }

    const labels = { channelId: {} as Record<string, string>, brandId: {} as Record<string, string> }
    for (const row of rows) {
      labels.channelId[row.channelId] = row.channelName
      labels.brandId[row.brandId] = row.brandName
    }
    return {
      jobs: yield* Effect.forEach(rows, (row) => Effect.map(clipOf(row.clipId), (clip) => jobView(row, clip))),
      total,
      all: all ?? counts.reduce((sum, c) => sum + c.n, 0),
      page,
      perPage,
      stages,
      unstaged,
      facets,
      labels
    } satisfies JobPage
  })

  const posts = Effect.fn("Jobs.posts")(function*(workspaceId: WorkspaceId, params: PostsParams) {
    const { channelId, page, perPage, platform, q, state } = params
    const scope = { channelId, q }
    const [rows, counts, all] = yield* Effect.all([
      query.posts(workspaceId, { ...scope, state, platform }, perPage, (page - 1) * perPage),
      query.postCounts(workspaceId, scope),
      channelId === undefined && q === undefined ? Effect.succeed(undefined) : query.countPosts(workspaceId)
    ], { concurrency: "unbounded" })
    const facets = { state: zeroes(JobStatus.literals), platform: zeroes(platforms) }
    let total = 0
    for (const c of counts) {
      facets.state[c.state] = (facets.state[c.state] ?? 0) + c.n
      facets.platform[c.platform] = (facets.platform[c.platform] ?? 0) + c.n
      if ((state === undefined || c.state === state) && (platform === undefined || c.platform === platform)) {
        total += c.n
      }
    }
    return {
      posts: yield* Effect.forEach(rows, (row) => Effect.map(assetOf(row.clipId), (asset) => postView(row, asset))),
      total,
      all: all ?? counts.reduce((sum, c) => sum + c.n, 0),
      page,
      perPage,
      facets
    } satisfies PostPage
  })

  return { jobs, posts }
})

export class Jobs extends Context.Tag("clipwright/publishing/views/Jobs")<Jobs, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(Jobs, make).pipe(Layer.provide(ClipLinks.layer))
}
