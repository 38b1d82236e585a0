import { Context, Effect, Layer } from "effect"
import { newUlid } from "../../domain/Ulid.js"
import type { DeliveryData } from "../WebhookData.js"
import type { DeliveryEvent, DeliveryRecord, PostChanges } from "./DeliveryRecord.js"
import type { DeliveryPost, HandOverTarget } from "./DeliveryRepo.js"
import type { DuePost } from "./DueRepo.js"
import { handOverOwnerOf } from "./HandOverEntity.js"
import { PostOuts } from "./PostOuts.js"
import { signedHeaders, SigningClock } from "./WebhookSigning.js"

/** Posts handed over together: one event's channels without approval, or one approved post, or one job's change. */
export interface Batch {
  readonly event: DeliveryEvent
  readonly posts: ReadonlyArray<DuePost>
  readonly changes?: PostChanges | undefined
  readonly media?: DeliveryData["media"]
  /** For deliveries a request queued: made once per request however often it runs. */
  readonly requestKey?: string | undefined
}

export interface Made {
  readonly rows: ReadonlyArray<typeof DeliveryRecord.insert.Type>
  readonly posts: ReadonlyArray<DeliveryPost>
  /** Posts no way could carry, with why. */
  readonly unhandled: ReadonlyArray<{ readonly postId: string; readonly reason: string }>
}

const encoder = new TextEncoder()

/**
 * Makes a batch's deliveries by its channels' switches: one webhook call carrying every post whose channel hands over
 * by webhook, one email carrying every post whose channel hands over by email. The webhook's body is fixed here, and
 * its headers signed: each automatic attempt signs the same bytes again as it is sent; a redelivery sends these.
 */
const make = Effect.gen(function*() {
  const outs = yield* PostOuts
  const clock = yield* SigningClock

  const made = (batch: Batch, target: HandOverTarget, now: Date) =>
    Effect.gen(function*() {
      const first = batch.posts[0]!
      const owner = handOverOwnerOf(first.ingestEventId)
      const rows: Array<typeof DeliveryRecord.insert.Type> = []
      const carried: Array<DeliveryPost> = []
      const base = {
        workspaceId: target.workspaceId,
        owner,
        event: batch.event,
        ingestEventId: first.ingestEventId,
        state: "PENDING" as const,
        attempt: 0,
        nextAttemptAt: null,
        lastStatusCode: null,
        lastError: null,
        deliveredAt: null,
        changes: batch.changes ?? null
      }
      type Own = Omit<typeof DeliveryRecord.insert.Type, keyof typeof base | "id" | "via" | "requestKey">
      const add = (id: string, via: "webhook" | "email", posts: ReadonlyArray<DuePost>, row: Own) => {
        rows.push({
          ...base,
          ...row,
          id,
          via,
          requestKey: batch.requestKey === undefined ? null : `${batch.requestKey}:${via}`
        })
        posts.forEach((post, position) =>
          carried.push({ deliveryId: id, postId: post.postId, position, via, event: batch.event })
        )
      }

      const byWebhook = batch.posts.filter((post) => post.deliverByWebhook)
      const webhookReady = target.webhookUrl !== null && target.webhookSecret !== null
      if (byWebhook.length > 0 && webhookReady) {
        const data: DeliveryData = {
          accountId: target.workspaceId,
          ingestEventId: first.ingestEventId,
          eventId: first.senderEventId,
          posts: yield* Effect.forEach(byWebhook, outs.outOf),
          ...(batch.changes === undefined ? {} : { changes: batch.changes }),
          ...(batch.media === undefined ? {} : { media: batch.media })
        }
        const text = JSON.stringify({ type: batch.event, timestamp: now.toISOString(), data })
        const body = encoder.encode(text)
        // The delivery's id is its webhook-id.
        const id = newUlid()
        const headers = signedHeaders(target.webhookSecret!, id, yield* clock.now, text)
        add(id, "webhook", byWebhook, { body, recipients: [], headers })
      }
      const byEmail = batch.posts.filter((post) => post.deliverByEmail)
      if (byEmail.length > 0 && target.recipients.length > 0) {
        add(newUlid(), "email", byEmail, { body: null, headers: {}, recipients: target.recipients })
      }

      const handled = new Set(carried.map((post) => post.postId))
      const unhandled = batch.posts.filter((post) => !handled.has(post.postId)).map((post) => ({
        postId: post.postId,
        reason: post.deliverByWebhook && !webhookReady
          ? "The workspace has no webhook address to hand the post over to."
          : "Nobody in the workspace receives hand-over emails (no owner or Operations member with an email)."
      }))
      return { rows, posts: carried, unhandled }
    })

  return {
    make: (batches: ReadonlyArray<Batch>, targets: ReadonlyMap<string, HandOverTarget>, now: Date) =>
      Effect.map(
        Effect.forEach(batches, (batch) => made(batch, targets.get(batch.posts[0]!.workspaceId)!, now)),
        (all): Made => ({
          rows: all.flatMap((m) => m.rows),
          posts: all.flatMap((m) => m.posts),
          unhandled: all.flatMap((m) => m.unhandled)
        })
      )
  }
})

export class DeliveryMaker
  extends Context.Tag("clipwright/delivery/handover/DeliveryMaker")<DeliveryMaker, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(DeliveryMaker, make)
}
