import { Clock, Context, Effect, Layer } from "effect"
import { periodOf, type QuotaBlock } from "../domain/Quota.js"
import { IdentityRepo, type WorkspaceRow } from "../sql/IdentityRepo.js"
import { Identity } from "./Identity.js"

/** The render allowance block; `used` counts videos finished this period (none until renders exist). */
const quotaOf = (workspace: WorkspaceRow, used: number, now: Date): QuotaBlock => {
  const { end, start } = periodOf(now)
  return {
    allowance: workspace.renderAllowance,
    used,
    extra: 0,
    remaining: Math.max(0, workspace.renderAllowance - used),
    unlimited: false,
    periodStart: start.toISOString(),
    periodEnd: end.toISOString(),
    overridden: workspace.limitsOverridden
  }
}

const make = Effect.gen(function*() {
  const repo = yield* IdentityRepo
  const identity = yield* Identity

  const quota = Effect.fn("Quotas.quota")(function*(accountId: string) {
    const workspace = yield* identity.requireWorkspace(accountId)
    const now = new Date(yield* Clock.currentTimeMillis)
    return quotaOf(workspace, 0, now)
  })

  const setLimits = Effect.fn("Quotas.setLimits")(
    function*(accountId: string, limits: Parameters<typeof repo.setLimits>[1]) {
      yield* identity.requireWorkspace(accountId)
      yield* repo.setLimits(accountId, limits)
      return yield* quota(accountId)
    }
  )

  return { quota, setLimits }
})

export class Quotas extends Context.Tag("clipwright/services/Quotas")<Quotas, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(Quotas, make)
}
