import { Clock, Context, Effect, Layer } from "effect"
import { Conflict, detailAt } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { Identity } from "../../identity/Identity.js"
import type { Workspace } from "../../identity/Workspace.js"
import { StorageUsage } from "../../media/StorageUsage.js"
import { AllowanceRepo } from "./AllowanceRepo.js"
import { type CountLimit, periodOf, type QuotaBlock, type QuotaOverview } from "./Quota.js"

const extraRefused = (message: string) => new Conflict({ message, details: [detailAt(["renders"], message, "extra")] })

/**
 * The render allowance block: `used` counts videos finished this period (committed reservations); `remaining` is
 * what may still be started, so renders still in flight count against it as the spec's allowance does.
 */
const quotaOf = (workspace: Workspace, usage: Usage, now: Date): QuotaBlock => {
  const { end, start } = periodOf(now)
  return {
    allowance: workspace.renderAllowance,
    used: usage.committed,
    extra: usage.extra,
    remaining: Math.max(0, workspace.renderAllowance + usage.extra - usage.committed - usage.reserved),
    unlimited: false,
    periodStart: start.toISOString(),
    periodEnd: end.toISOString(),
    overridden: workspace.limitsOverridden
  }
}

interface Usage {
  readonly committed: number
  readonly reserved: number
  readonly extra: number
}

/** Extra renders not spent: the allowance is spent first, so only what is left beyond it, at most `extra`. */
const unusedExtra = (workspace: Workspace, usage: Usage) =>
  Math.max(0, Math.min(usage.extra, workspace.renderAllowance + usage.extra - usage.committed - usage.reserved))

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

  const nextPeriodOf = (workspaceId: WorkspaceId, now: Date) =>
    Effect.map(allowance.usage(workspaceId, periodOf(now).end), (usage) => {
      const { end, start } = periodOf(periodOf(now).end)
      return { periodStart: start.toISOString(), periodEnd: end.toISOString(), extra: usage.extra }
    })

  /** The period after the current one, with the extra renders kept for it (what the console's workspace page shows). */
  const nextPeriod = Effect.fn("Quotas.nextPeriod")(function*(accountId: WorkspaceId) {
    yield* identity.requireWorkspace(accountId)
    return yield* nextPeriodOf(accountId, new Date(yield* Clock.currentTimeMillis))
  })

  /** The quota and the next period's extra renders, after a change to what the workspace pays for. */
  const answer = (accountId: WorkspaceId, now: Date) =>
    Effect.all({ quota: quota(accountId), nextPeriod: nextPeriodOf(accountId, now) })

  const current = (accountId: WorkspaceId) =>
    Effect.gen(function*() {
      const workspace = yield* identity.requireWorkspace(accountId)
      const now = new Date(yield* Clock.currentTimeMillis)
      const usage = yield* allowance.usage(accountId, periodOf(now).start)
      return { workspace, now, usage, unused: unusedExtra(workspace, usage) }
    })

  /** `POST /v1/renders/buy`: extra renders this period, up to the operator's ceiling. */
  const buy = Effect.fn("Quotas.buy")(function*(accountId: WorkspaceId, renders: number) {
    const { now, usage, workspace } = yield* current(accountId)
    if (!(yield* allowance.addExtra(accountId, periodOf(now).start, renders))) {
      const room = Math.max(0, workspace.extraCeiling - usage.extra)
      return yield* extraRefused(
        workspace.extraCeiling === 0
          ? "The operator allows no extra renders for this workspace; ask them to set a ceiling."
          : `At most ${workspace.extraCeiling} extra renders a month; ${room} more may be bought this month.`
      )
    }
    return yield* answer(accountId, now)
  })

  /** `POST /v1/renders/keep`: unused extra renders of this period carried into the next. */
  const keep = Effect.fn("Quotas.keep")(function*(accountId: WorkspaceId, renders: number | undefined) {
    const { now, unused, workspace } = yield* current(accountId)
    const count = renders ?? unused
    if (count === 0) return yield* extraRefused("This month has no unused extra renders to keep.")
    if (count > unused) return yield* extraRefused(`Only ${unused} extra renders of this month are unused.`)
    const moved = yield* allowance.moveExtra(accountId, periodOf(now).start, periodOf(now).end, count)
    if (!moved) {
      return yield* extraRefused(
        `Next month would hold more than the ceiling of ${workspace.extraCeiling} extra renders.`
      )
    }
    return yield* answer(accountId, now)
  })

  /** `POST /v1/renders/drop`: unused extra renders of this period given up. */
  const drop = Effect.fn("Quotas.drop")(function*(accountId: WorkspaceId, renders: number | undefined) {
    const { now, unused } = yield* current(accountId)
    const count = renders ?? unused
    if (count === 0) return yield* extraRefused("This month has no unused extra renders to drop.")
    if (count > unused || !(yield* allowance.takeExtra(accountId, periodOf(now).start, count))) {
      return yield* extraRefused(`Only ${unused} extra renders of this month are unused.`)
    }
    return yield* answer(accountId, now)
  })

  return { quota, overview, nextPeriod, setLimits, buy, keep, drop }
})

export class Quotas
  extends Context.Tag("clipwright/renders/allowance/Quotas")<Quotas, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(Quotas, make)
}
