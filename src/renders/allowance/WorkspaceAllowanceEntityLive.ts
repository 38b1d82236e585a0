import { Entity } from "@effect/cluster"
import { Clock, Effect } from "effect"
import { NotFound, RateLimited } from "../../domain/Errors.js"
import { WorkspaceId } from "../../domain/Principal.js"
import { Identity } from "../../identity/Identity.js"
import { withOutageRetries } from "../../sql/OutageRetries.js"
import { AllowanceRepo } from "./AllowanceRepo.js"
import { queueShareCheck } from "./QueueShare.js"
import { periodOf } from "./Quota.js"
import { WorkspaceAllowanceEntity } from "./WorkspaceAllowanceEntity.js"

export const WorkspaceAllowanceEntityLive = WorkspaceAllowanceEntity.toLayer(
  Effect.gen(function*() {
    // The entity id is a workspace id: every client addresses it by a caller's or a render job row's WorkspaceId.
    const workspaceId = WorkspaceId.make((yield* Entity.CurrentAddress).entityId)
    const allowance = yield* AllowanceRepo
    const identity = yield* Identity
    const checkQueueShare = yield* queueShareCheck

    return WorkspaceAllowanceEntity.of(withOutageRetries({
      Reserve: ({ payload }) =>
        Effect.gen(function*() {
          const workspace = yield* identity.findWorkspace(workspaceId)
          if (workspace._tag === "None") return yield* new NotFound({ message: `No workspace ${workspaceId}.` })
          if (yield* allowance.isReserved(workspaceId, payload.renderJobIds[0] ?? "")) return
          if (!payload.waitForRenderer) yield* checkQueueShare(workspaceId)
          const now = new Date(yield* Clock.currentTimeMillis)
          const { end, start } = periodOf(now)
          const { committed, extra, reserved } = yield* allowance.usage(workspaceId, start)
          const left = workspace.value.renderAllowance + extra - committed - reserved
          if (left < payload.renderJobIds.length) {
            return yield* new RateLimited({
              message: `The render allowance of ${workspace.value.renderAllowance} videos this month ` +
                `${extra > 0 ? `and ${extra} extra ` : ""}is used up ` +
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
