import { Clock, Context, Effect, Layer } from "effect"
import { type CountLimit, periodOf, type QuotaBlock, type QuotaOverview } from "./Quota.js"
import { AllowanceRepo } from "./AllowanceRepo.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import type { Workspace } from "../../identity/Workspace.js"
import { Identity } from "../../identity/Identity.js"
import { StorageUsage } from "../../media/StorageUsage.js"

/**
 * The render allowance block: `used` counts videos finished this period (committed reservations); `remaining` is
 * what may still be started, so renders still in flight count against it as the spec's allowance does.
 */
const quotaOf = (workspace: Workspace, usage: { committed: number; reserved: number }, now: Date): QuotaBlock => {
  const { end, start } = periodOf(now)
  return {
    allowance: workspace.renderAllowance,
    used: usage.committed,
    extra: 0,
    remaining: Math.max(0, workspace.renderAllowance - usage.committed - usage.reserved),
    unlimited: false,
    periodStart: start.toISOString(),
    periodEnd: end.toISOString(),
    overridden: workspace.limitsOverridden
  }
}

/** Partners (other workspaces sharing this one's work) are not a feature yet: none used, none allowed. */
const NO_PARTNERS: CountLimit = { used: 0, max: 0, unlimited: false }

const make = Effect.gen(function*() {
  const allowance = yield* AllowanceRepo
  const storage = yield* StorageUsage
  const identity = yield* Identity

  const blockOf = (workspace: Workspace) =>
    Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      const usage = yield* allowance.usage(workspace.id, periodOf(now).start)
      return quotaOf(workspace, usage, now)
    })

  const quota = Effect.fn("Quotas.quota")(function*(accountId: WorkspaceId) {
    return yield* blockOf(yield* identity.requireWorkspace(accountId))
  })

  /** Allowance, seats, partners and storage (`GET /v1/renders/quota`). */
  const overview = Effect.fn("Quotas.overview")(function*(accountId: WorkspaceId) {
    const workspace = yield* identity.requireWorkspace(accountId)
    const [block, members, storageBlock] = yield* Effect.all(
      [blockOf(workspace), identity.countMembers(accountId), storage.storageBlock(accountId)],
      { concurrency: 3 }
    )
    return {
      quota: block,
      seats: { used: members, max: workspace.seats, unlimited: workspace.seats === null },
      partners: NO_PARTNERS,
      storage: storageBlock
    } satisfies QuotaOverview
  })

  const setLimits = Effect.fn("Quotas.setLimits")(
    function*(accountId: WorkspaceId, limits: Parameters<Identity["Type"]["setLimits"]>[1]) {
      yield* identity.requireWorkspace(accountId)
      yield* identity.setLimits(accountId, limits)
      // A smaller allowance may leave kept clips beyond the clips share: the oldest go, as when room is needed.
      if (limits.storageMb !== undefined) yield* storage.fitClips(accountId)
      return yield* quota(accountId)
    }
  )

  return { quota, overview, setLimits }
})

export class Quotas extends Context.Tag("clipwright/services/Quotas")<Quotas, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(Quotas, make)
}
