import { Context, Effect, Layer, Option } from "effect"
import { ClipStills } from "../email/ClipStills.js"
import { composeEmail } from "../email/EmailMessage.js"
import type { Sendable } from "./DeliveryRecord.js"
import { DeliveryRepo } from "./DeliveryRepo.js"
import { DueRepo } from "./DueRepo.js"
import { PostOuts } from "./PostOuts.js"

/**
 * An email delivery's message, composed at its first attempt (its still is drawn then, off the path that makes
 * deliveries) and stored: every later attempt and redelivery sends the same bytes.
 */
const make = Effect.gen(function*() {
  const due = yield* DueRepo
  const repo = yield* DeliveryRepo
  const outs = yield* PostOuts
  const stills = yield* ClipStills

  const compose = (delivery: Sendable, from: string, workspaceName: string) =>
    Effect.gen(function*() {
      const carried = yield* due.carriedBy(delivery.id)
      const posts = yield* Effect.forEach(carried, (post) =>
        Effect.gen(function*() {
          const out = yield* outs.outOf(post)
          const still = post.clipId === null ? Option.none() : yield* stills.stillOf(post.workspaceId, post.clipId)
          return { post: out, clipUrl: out.assets[0]?.url ?? null, still: Option.getOrNull(still) }
        }), { concurrency: 4 })
      const composed = yield* Effect.promise(() =>
        composeEmail({
          deliveryId: delivery.id,
          from,
          to: delivery.recipients,
          workspaceName,
          event: delivery.event,
          posts,
          changes: delivery.changes ?? undefined,
          date: new Date()
        })
      )
      yield* repo.setMessage(delivery.id, composed.raw, {
        subject: composed.subject,
        from,
        to: delivery.recipients.join(", ")
      })
      // Another attempt may have composed it first: what is stored is what goes out.
      const stored = yield* repo.find(delivery.workspaceId, delivery.id)
      return Option.flatMap(stored, (d) => Option.fromNullable(d.body)).pipe(Option.getOrElse(() => composed.raw))
    })

  return { compose }
})

export class DeliveryMessages extends Context.Tag("clipwright/delivery/handover/DeliveryMessages")<
  DeliveryMessages,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(DeliveryMessages, make)
}
