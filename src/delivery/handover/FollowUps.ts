import { Context, Effect, Layer } from "effect"
import type { WorkspaceId } from "../../domain/Principal.js"
import { type Batch, DeliveryMaker } from "./DeliveryMaker.js"
import { DeliveryRepo } from "./DeliveryRepo.js"
import { DueRepo } from "./DueRepo.js"
import { HandOverEntity } from "./HandOverEntity.js"

const make = Effect.gen(function*() {
  const due = yield* DueRepo
  const deliveries = yield* DeliveryRepo
  const maker = yield* DeliveryMaker
  const handOver = yield* HandOverEntity.client

  /** Makes the batch's deliveries unless this request made them already, then starts each through its owner. */
  const queue = (
    workspaceId: WorkspaceId,
    jobId: string,
    requestId: string,
    batch: Omit<Batch, "posts" | "requestKey">
  ) =>
    Effect.gen(function*() {
      const requestKey = `${batch.event}:${requestId}`
      const keys = [`${requestKey}:webhook`, `${requestKey}:email`]
      let queued = yield* deliveries.byRequestKeys(workspaceId, keys)
      if (queued.length === 0) {
        const posts = yield* due.postOf(workspaceId, jobId)
        const targets = yield* deliveries.targets([workspaceId])
        const made = yield* maker.make(
          [{ ...batch, posts, requestKey }],
          new Map(targets.map((t) => [t.workspaceId as string, t])),
          new Date()
        )
        yield* deliveries.withTransaction(deliveries.insert(made.rows, made.posts)).pipe(Effect.orDie)
        queued = yield* deliveries.byRequestKeys(workspaceId, keys)
      }
      yield* Effect.forEach(queued, (d) =>
        handOver(d.owner).Attempt({ workspaceId, deliveryId: d.id, attempt: 1, at: Date.now() }, { discard: true }), {
        discard: true
      })
        .pipe(Effect.orDie)
      return { ok: true as const, queued: queued.length }
    })

  return { queue }
})

/**
 * What follows a publication, on hand-over's side: a change or removal of a published post sent on to the receiver as
 * signed `post.update` / `post.delete` deliveries, made once per request and started through their HandOver owner's
 * timer. Publishing's post actions ask for them here rather than writing hand-over's tables themselves.
 */
export class FollowUps
  extends Context.Tag("clipwright/delivery/handover/FollowUps")<FollowUps, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(FollowUps, make)
}
