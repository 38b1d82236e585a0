import { Entity } from "@effect/cluster"
import { Clock, Effect } from "effect"
import { NotFound, RateLimited, UpstreamUnavailable } from "../../domain/Errors.js"
import { WorkspaceId } from "../../domain/Principal.js"
import { periodOf } from "./Quota.js"
import { AllowanceRepo } from "./AllowanceRepo.js"
import { Identity } from "../../identity/Identity.js"
import { RenderRepo } from "../jobs/RenderRepo.js"
import { RenderCapacity } from "./RenderCapacity.js"
import { WorkspaceAllowanceEntity } from "./WorkspaceAllowanceEntity.js"
import { withOutageRetries } from "../../sql/OutageRetries.js"

/** Beyond this many waiting renders per cluster slot, new work is turned away (503) instead of queued. */
export const QUEUE_PER_SLOT = 20

export const WorkspaceAllowanceEntityLive = WorkspaceAllowanceEntity.toLayer(
  Effect.gen(function*() {
    // The entity id is a workspace id: every client addresses it by a caller's or a render job row's WorkspaceId.
    const workspaceId = WorkspaceId.make((yield* Entity.CurrentAddress).entityId)
    const allowance = yield* AllowanceRepo
    const identity = yield* Identity
    const renders = yield* RenderRepo
    const capacity = yield* RenderCapacity

    const checkCapacity = Effect.gen(function*() {
      const slots = yield* capacity.clusterSlots
      const waiting = yield* renders.waitingInCluster
      if (slots === 0 || waiting >= slots * QUEUE_PER_SLOT) {
        return yield* new UpstreamUnavailable({
          message: slots === 0 ? "No renderer is available in the cluster." : "Every renderer is busy and the queue is full.",
          retryAfterSeconds: 30
        })
      }
    })

    return WorkspaceAllowanceEntity.of(withOutageRetries({
      Reserve: ({ payload }) =>
        Effect.gen(function*() {
          const workspace = yield* identity.findWorkspace(workspaceId)
          if (workspace._tag === "None") return yield* new NotFound({ message: `No workspace ${workspaceId}.` })
          if (yield* allowance.isReserved(workspaceId, payload.renderJobIds[0] ?? "")) return
          if (!payload.waitForRenderer) yield* checkCapacity
          const now = new Date(yield* Clock.currentTimeMillis)
          const { end, start } = periodOf(now)
          const { committed, reserved } = yield* allowance.usage(workspaceId, start)
          const left = workspace.value.renderAllowance - committed - reserved
          if (left < payload.renderJobIds.length) {
            return yield* new RateLimited({
              message: `The render allowance of ${workspace.value.renderAllowance} videos this month is used up ` +
                `(${committed} finished, ${reserved} rendering, ${Math.max(0, left)} left for ` +
                `${payload.renderJobIds.length} asked); it resets on ${end.toISOString().slice(0, 10)}.`,
              retryAfterSeconds: Math.ceil((end.getTime() - now.getTime()) / 1000)
            })
          }
          yield* allowance.reserve(workspaceId, payload.renderJobIds, start)
        }).pipe(Effect.withSpan("WorkspaceAllowance.reserve", { attributes: { workspaceId } })),
      Settle: ({ payload }) =>
        (payload.outcome === "commit" ? allowance.commit : allowance.release)(workspaceId, payload.renderJobId).pipe(
          Effect.asVoid,
          Effect.withSpan("WorkspaceAllowance.settle", { attributes: { workspaceId, outcome: payload.outcome } })
        )
    }))
  }),
  { maxIdleTime: "5 minutes" }
)
