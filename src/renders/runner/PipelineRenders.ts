import { Context, Effect, Layer, Option } from "effect"
import { digestOf } from "../../domain/Digest.js"
import { entityCall } from "../../domain/EntityCalls.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { WorkspaceAllowanceEntity } from "../allowance/WorkspaceAllowanceEntity.js"
import type { RenderJobState, RenderPackage } from "../RenderJob.js"
import { RenderRepo } from "../RenderRepo.js"
import { RenderRunnerEntity } from "../RenderRunnerEntity.js"

export interface PipelineRender {
  readonly package: RenderPackage
  readonly contentKey: string
  readonly origin: string
  readonly details: string
  readonly postTitle: string | null
  readonly templateName: string
}

/** The render a job waits on: a new one, or one of the same outputs already drawing or drawn (render once). */
export type RenderFor =
  | {
    readonly _tag: "Rendering"
    readonly renderJobId: string
    readonly state: RenderJobState
    readonly shared: boolean
  }
  | { readonly _tag: "Refused"; readonly reason: string }

/**
 * Renders for the publishing pipeline, through the same allowance and runners as direct export. A video with the same
 * content key (build, content, brand look, ratio, locale) that is drawing or kept serves the job instead, costing
 * nothing more.
 */
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/** A ULID-shaped id drawn from what the video is: the same outputs and generation give the same id on every node. */
const renderIdFor = (workspaceId: string, contentKey: string, generation: number): string => {
  const digest = Buffer.from(digestOf({ workspaceId, contentKey, generation }), "base64url")
  // The first character of a ULID is at most 7 (48 bits of time).
  return [...digest.subarray(0, 26)].map((byte, i) => CROCKFORD[i === 0 ? byte % 8 : byte % 32]).join("")
}

const make = Effect.gen(function*() {
  const repo = yield* RenderRepo
  const allowance = yield* WorkspaceAllowanceEntity.client
  const runner = yield* RenderRunnerEntity.client

  /**
   * `ask` names this ask (a job's hand-over to its channel): the reservation is asked under the render's id and it.
   * The cluster keeps a request's answer under its key, an interruption too, and hands it to every later request under
   * that key: asked under the render's id alone, one reservation interrupted as PostgreSQL came back answered every
   * later ask of that video "interrupted", and its jobs stayed ACCEPTED for good. The reservation itself is once per
   * render whatever the key (the allowance looks it up by render id).
   */
  const renderFor = Effect.fn("PipelineRenders.renderFor")(
    function*(workspaceId: WorkspaceId, render: PipelineRender, ask: string) {
      const { generation, reusable } = yield* repo.byContent(workspaceId, render.contentKey)
      if (reusable._tag === "Some") {
        return {
          _tag: "Rendering",
          renderJobId: reusable.value.id,
          state: reusable.value.state,
          shared: true
        } satisfies RenderFor
      }
      // Jobs asking for the same new video at once draw the same id: one row, one reservation, one runner. A video that
      // failed or was removed is drawn anew under the next generation's id.
      const renderJobId = renderIdFor(workspaceId, render.contentKey, generation)
      const reserve = allowance(workspaceId).Reserve({
        requestId: `${renderJobId}:${ask}`,
        renderJobIds: [renderJobId],
        waitForRenderer: true
      })
      const reserved = yield* Effect.either(entityCall(reserve))
      if (reserved._tag === "Left") return { _tag: "Refused", reason: reserved.left.message } satisfies RenderFor
      yield* repo.insertJob(workspaceId, { id: renderJobId, ...render })
      yield* runner(renderJobId).Start({}, { discard: true }).pipe(Effect.orDie)
      return { _tag: "Rendering", renderJobId, state: "PENDING", shared: false } satisfies RenderFor
    }
  )

  /** A render's state now, and its error. */
  const current = (workspaceId: WorkspaceId, renderJobId: string) =>
    Effect.map(repo.findJob(workspaceId, renderJobId), Option.map((job) => ({ state: job.state, error: job.error })))

  /**
   * Stops a render; false when it had ended. Its row is ended here rather than by asking its runner, which may be on
   * no node yet (a cluster without render slots): the runner hears it to stop a drawing in progress, and the
   * reservation goes back at once (a runner that settles it again later changes nothing).
   */
  const stop = (workspaceId: WorkspaceId, renderJobId: string, reason: string) =>
    Effect.gen(function*() {
      const ended = yield* repo.finishIfOpen(workspaceId, renderJobId, "CANCELLED", reason)
      if (!ended) return false
      yield* Effect.all([
        runner(renderJobId).Cancel({ reason }, { discard: true }),
        allowance(workspaceId).Settle({ renderJobId, outcome: "release" }, { discard: true })
      ], { discard: true }).pipe(Effect.orDie)
      return true
    })

  return { renderFor, current, stop }
})

export class PipelineRenders extends Context.Tag("clipwright/renders/runner/PipelineRenders")<
  PipelineRenders,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(PipelineRenders, make)
}
