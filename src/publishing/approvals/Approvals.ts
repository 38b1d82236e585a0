import { Context, Effect, FiberRef, Layer, Option } from "effect"
import { ChannelEntity } from "../../channels/ChannelEntity.js"
import { surfaceOf } from "../../channels/Surfaces.js"
import { entityCall } from "../../domain/EntityCalls.js"
import { NotFound } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { CurrentRequestId } from "../../domain/RequestId.js"
import { ClipLinks } from "../../renders/clips/ClipLinks.js"
import { ApprovalState } from "../states/ApprovalRecord.js"
import type { ApprovalsParams, ApprovalView, Decision } from "./Approval.js"
import { type ApprovalRow, ApprovalsQuery } from "./ApprovalsQuery.js"

/** The approval log (SQL) and decisions, which go through the job's channel entity. */
const make = Effect.gen(function*() {
  const query = yield* ApprovalsQuery
  const links = yield* ClipLinks
  const channel = yield* ChannelEntity.client

  const assetsOf = (clipId: string | null) =>
    clipId === null ? Effect.succeed([]) : Effect.map(links.asset(clipId), (asset) => [asset])

  const view = (row: ApprovalRow) =>
    Effect.map(assetsOf(row.clipId), (assets): ApprovalView => ({
      id: row.id,
      state: row.state,
      requestedAt: row.requestedAt.toISOString(),
      decidedAt: row.decidedAt?.toISOString() ?? null,
      decidedBy: row.decidedBy,
      note: row.note,
      postGroupId: row.jobId,
      channelId: row.channelId,
      channelName: row.channelName,
      templateId: row.templateId,
      templateVersion: row.templateVersion,
      posts: row.postId === null ? [] : [{
        id: row.postId,
        platform: row.platform ?? "",
        surfaceLabel: surfaceOf(row.surface ?? "")?.label ?? row.surface ?? "",
        locale: row.locale ?? "",
        ratio: row.ratio ?? "",
        title: row.title ?? "",
        caption: row.caption ?? "",
        hashtags: row.hashtags ?? [],
        scheduledFor: row.scheduledFor?.toISOString() ?? null,
        state: row.postState ?? "",
        assets
      }]
    }))

  const list = Effect.fn("Approvals.list")(function*(workspaceId: WorkspaceId, params: ApprovalsParams) {
    const [rows, counts] = yield* Effect.all([
      query.page(workspaceId, params, params.perPage, (params.page - 1) * params.perPage),
      query.stateCounts(workspaceId, params.channelId)
    ])
    const state: Record<string, number> = Object.fromEntries(ApprovalState.literals.map((s) => [s, 0]))
    for (const count of counts) state[count.state] = count.n
    const inScope = counts.reduce((sum, count) => sum + count.n, 0)
    const all = params.channelId === undefined
      ? inScope
      : (yield* query.stateCounts(workspaceId)).reduce((sum, count) => sum + count.n, 0)
    return {
      approvals: yield* Effect.forEach(rows, view),
      total: params.state === undefined ? inScope : state[params.state] ?? 0,
      all,
      page: params.page,
      perPage: params.perPage,
      facets: { state }
    }
  })

  /** One approval of the workspace, as the log shows it. */
  const get = Effect.fn("Approvals.get")(function*(workspaceId: WorkspaceId, id: string) {
    const found = yield* query.find(workspaceId, id)
    if (Option.isNone(found)) return yield* new NotFound({ message: `No approval ${id}.` })
    return yield* view(found.value)
  })

  /** Decides as `actor` (`user:<email>` or `apikey:<id>`: `actorOf` in domain/Principal.ts); answers the decision as recorded. */
  const decide = Effect.fn("Approvals.decide")(function*(
    workspaceId: WorkspaceId,
    id: string,
    body: { readonly state: "APPROVED" | "REJECTED"; readonly note?: string | undefined },
    actor: string
  ) {
    const found = yield* query.find(workspaceId, id)
    if (Option.isNone(found)) return yield* new NotFound({ message: `No approval ${id}.` })
    const decided = yield* entityCall(
      channel(found.value.channelId).DecideApproval({
        requestId: yield* FiberRef.get(CurrentRequestId),
        workspaceId,
        approvalId: id,
        state: body.state,
        note: body.note ?? null,
        decidedBy: actor
      })
    )
    const row = Option.getOrElse(yield* query.find(workspaceId, id), () => found.value)
    return {
      ...decided,
      approvalId: id,
      note: row.note,
      decidedBy: row.decidedBy,
      decidedAt: row.decidedAt?.toISOString() ?? null
    } satisfies Decision
  })

  return { list, get, decide }
})

export class Approvals
  extends Context.Tag("clipwright/publishing/approvals/Approvals")<Approvals, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(Approvals, make).pipe(Layer.provide(ClipLinks.layer))
}
