import { Effect, Schedule } from "effect"
import type { WorkspaceId } from "../domain/Principal.js"
import { PostListEntity } from "./PostListEntity.js"
import type { Armed } from "./PostListRepo.js"

/**
 * Sets packages' timers: one persisted `Fire` each on the list's own entity, delivered at its time. Keyed by the
 * package, its time and its timer count, so setting the same timer twice (a request run again) stores it once.
 */
export const packageTimers = Effect.gen(function*() {
  const lists = yield* PostListEntity.client
  const arm = (workspaceId: WorkspaceId, queueId: string, packages: ReadonlyArray<Armed>) =>
    Effect.forEach(packages, (pkg) =>
      lists(queueId).Fire({
        workspaceId,
        packageId: pkg.id,
        at: pkg.scheduledFor.getTime(),
        armed: pkg.armed
      }, { discard: true }), { concurrency: 16, discard: true }).pipe(
        // Storing the timer must not be lost to a passing storage fault: the request's answer waits for it.
        Effect.retry(Schedule.exponential("100 millis").pipe(Schedule.upTo("10 seconds"))),
        Effect.orDie
      )
  return { arm }
})
