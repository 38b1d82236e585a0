import { Effect } from "effect"
import { UpstreamUnavailable } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { RenderQueue } from "../RenderQueue.js"
import { RenderCapacity } from "./RenderCapacity.js"

/** Beyond this many waiting renders of one workspace per cluster slot, its new work is turned away (503). */
export const QUEUE_PER_SLOT = 20
/** A workspace's render time assumed before it has finished any. */
const FIRST_RENDER_SECONDS = 30
const MAX_RETRY_AFTER_SECONDS = 3600

/**
 * Refuses a direct export when the cluster has no renderer, or when this workspace's own queue is full: the cap is per
 * workspace, so one workspace's flood is refused to it while the others' work is still taken. The wait it names is
 * this workspace's: the renders it must see leave its queue, at its own recent render time, with the slots shared
 * between the workspaces rendering now (each takes turns).
 */
export const queueShareCheck = Effect.gen(function*() {
  const capacity = yield* RenderCapacity
  const queue = yield* RenderQueue
  return (workspaceId: WorkspaceId) =>
    Effect.gen(function*() {
      const slots = yield* capacity.clusterSlots
      if (slots === 0) {
        return yield* new UpstreamUnavailable({
          message: "No renderer is available in the cluster.",
          retryAfterSeconds: 30
        })
      }
      const waiting = yield* queue.waitingOf(workspaceId)
      const cap = slots * QUEUE_PER_SLOT
      if (waiting < cap) return
      const { activeWorkspaces, meanSeconds } = yield* queue.pace(workspaceId)
      const seconds = (waiting - cap + 1) * (meanSeconds ?? FIRST_RENDER_SECONDS) * Math.max(1, activeWorkspaces) /
        slots
      const retryAfterSeconds = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(seconds)))
      return yield* new UpstreamUnavailable({
        message: `Every renderer is busy and this workspace's queue is full: ${waiting} of its videos wait for a ` +
          `renderer, at most ${cap} may (${QUEUE_PER_SLOT} per render slot of the cluster). Other workspaces' renders ` +
          `take turns with these; retry in about ${retryAfterSeconds} s.`,
        retryAfterSeconds
      })
    })
})
