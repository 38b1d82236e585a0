import { Effect, Either, Option } from "effect"
import type { JobRenderEnded, StartJob } from "../../channels/ChannelEntity.js"
import { surfaceOf } from "../../channels/Surfaces.js"
import { digestOf } from "../../domain/Digest.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { newUlid } from "../../domain/Ulid.js"
import { canDraw } from "../../drawing/Locales.js"
import { isFrom, statusSteps } from "../../posts/JobStatusSteps.js"
import { postTextOf } from "../../posts/PostText.js"
import { isTerminal, type RenderJobState, type RenderPackage } from "../../renders/RenderJob.js"
import { PipelineRenders } from "../../renders/runner/PipelineRenders.js"
import { resolveBuild } from "../../templates/TemplateRegistry.js"
import { JobRepo, type JobToStart } from "./JobRepo.js"

const succeeded = (state: RenderJobState) => state === "COMPLETED" || state === "PARTIAL"

/**
 * The channel entity's part of a job's life (docs/pipeline.md): start (the render it needs, shared when the same
 * video is drawing or kept), its render's end, and from a finished video to a post waiting for approval or for its
 * time. Each handler checks the status it moves from, so a message delivered twice changes nothing the second time.
 */
export const jobHandlers = Effect.gen(function*() {
  const repo = yield* JobRepo
  const renders = yield* PipelineRenders

  const fail = (workspaceId: WorkspaceId, jobId: string, step: "refuse" | "renderFailed", error: string) =>
    Effect.asVoid(repo.move(workspaceId, jobId, step, { error }))

  /** The finished video becomes the job's post, waiting for a person (PER_POST) or for its time. */
  const rendered = (job: JobToStart, renderJobId: string) =>
    repo.withTransaction(Effect.gen(function*() {
      const scheduledFor = job.scheduledFor ?? new Date()
      const next = job.approval === "PER_POST" ? "awaitApproval" : "schedule"
      const moved = yield* repo.move(job.workspaceId, job.id, next, { scheduledFor })
      if (!moved) return
      const text = postTextOf(job.content, job.locale, job.surface)
      yield* repo.insertPost({
        id: newUlid(),
        workspaceId: job.workspaceId,
        jobId: job.id,
        channelId: job.channelId,
        renderJobId,
        platform: surfaceOf(job.surface)?.platform ?? job.surface,
        surface: job.surface,
        locale: job.locale,
        ratio: job.ratio,
        state: statusSteps[next].to,
        title: text.title,
        caption: text.caption,
        hashtags: text.hashtags,
        scheduledFor
      })
      if (next === "awaitApproval") {
        yield* repo.insertApproval({
          id: newUlid(),
          workspaceId: job.workspaceId,
          jobId: job.id,
          channelId: job.channelId,
          state: "PENDING",
          note: null
        })
      }
    }))

  const afterRender = (job: JobToStart, renderJobId: string, state: RenderJobState, error: string | null) =>
    succeeded(state)
      ? rendered(job, renderJobId)
      : fail(job.workspaceId, job.id, "renderFailed", error ?? `The render ended ${state.toLowerCase()}.`)

  const start = ({ claim, jobId, workspaceId }: StartJob) =>
    Effect.gen(function*() {
      const found = yield* repo.findToStart(workspaceId, jobId)
      if (Option.isNone(found) || !isFrom("start", found.value.status)) return
      const job = found.value
      const resolved = resolveBuild(job.templateId, {
        variant: job.templateVariant ?? undefined,
        version: job.templateVersion ?? undefined
      })
      if (Either.isLeft(resolved)) {
        return yield* fail(
          workspaceId,
          jobId,
          "refuse",
          `The template build ${job.templateId} ${job.templateVariant ?? ""} ` +
            `${job.templateVersion ?? "latest"} is not offered any more.`
        )
      }
      const { build, template, variant } = resolved.right
      if (!(build.ratios as ReadonlyArray<string>).includes(job.ratio)) {
        return yield* fail(
          workspaceId,
          jobId,
          "refuse",
          `${template.name} ${variant.name} ${build.version} does not ` +
            `come in ${job.ratio}; it draws ${build.ratios.join(", ")}.`
        )
      }
      if (!canDraw(job.locale)) return yield* fail(workspaceId, jobId, "refuse", `Nothing is drawn in ${job.locale}.`)
      const renderPackage: RenderPackage = {
        template: { id: template.id, name: template.name, variant: variant.name, version: build.version },
        content: job.content,
        brand: { id: job.brandId, name: job.brandName },
        channel: { id: job.channelId, name: job.channelName },
        options: { outputs: [{ ratio: job.ratio, locale: job.locale }], priority: false }
      }
      // The same build, content, brand look, shape and language draw the same video.
      const contentKey = digestOf({
        template: renderPackage.template,
        content: job.content,
        brand: job.brandId,
        look: job.brandUpdatedAt.toISOString(),
        ratio: job.ratio,
        locale: job.locale
      })
      const render = yield* renders.renderFor(workspaceId, {
        package: renderPackage,
        contentKey,
        origin: job.origin,
        details: job.eventDetails,
        postTitle: job.postTitle,
        templateName: template.name
      }, `${jobId}:${claim}`)
      if (render._tag === "Refused") return yield* fail(workspaceId, jobId, "refuse", render.reason)
      const attached = yield* repo.move(workspaceId, jobId, "start", {
        renderJobId: render.renderJobId
      })
      if (!attached) return
      // Read again after attaching: a shared render that ended before this job was waiting on it told nobody here.
      const now = yield* renders.current(workspaceId, render.renderJobId)
      if (Option.isSome(now) && isTerminal(now.value.state)) {
        yield* afterRender(
          { ...job, status: statusSteps.start.to },
          render.renderJobId,
          now.value.state,
          now.value.error
        )
      }
    })

  const renderEnded = ({ error, jobId, renderJobId, state, workspaceId }: JobRenderEnded) =>
    Effect.gen(function*() {
      const found = yield* repo.findToStart(workspaceId, jobId)
      if (Option.isNone(found)) return
      const job = found.value
      if (!isFrom("renderFailed", job.status) || job.renderJobId !== renderJobId) return
      yield* afterRender(job, renderJobId, state, error)
    })

  return { start, renderEnded }
})
