import { SqlClient, type Statement } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { finished } from "../../posts/JobStatus.js"
import { statusSteps } from "../../posts/JobStatusSteps.js"
import type { ReceiverAnswer } from "../WebhookData.js"
import type { PostChanges } from "./DeliveryRecord.js"

/** The steps of the job machine (JobStatusSteps) a delivery's end takes. */
type HandOverOutcome = "published" | "publishFailed" | "updated" | "updateFailed" | "deleted" | "deleteFailed"

/**
 * What a delivery's end does to the posts it carried, and to their jobs (a post's state is its job's status). Each
 * move names the states it comes from, so a repeated or late outcome changes nothing it should not.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /**
   * Moves the posts selected by `posts` (a statement answering post ids) and their jobs. The ids are gathered once
   * into an array: as `id IN (…)` a planner without statistics on delivery_posts (a young table) scanned it once per
   * post in the `from` states, which made publishing a burst quadratic.
   */
  const move = (posts: Statement.Fragment, step: HandOverOutcome, reason: string | null) => {
    const { from, to } = statusSteps[step]
    return sql`WITH p AS (
          UPDATE posts SET state = ${to}, updated_at = now(), failure_reason = ${reason},
            published_at = ${to === statusSteps.published.to ? sql`coalesce(published_at, now())` : sql`published_at`}
          WHERE id = ANY(ARRAY(${posts})) AND state = ANY(${from}::text[])
          RETURNING job_id)
        UPDATE jobs SET status = ${to}, updated_at = now(),
          error = CASE WHEN ${reason}::text IS NULL THEN error ELSE ${reason} END,
          finished_at = ${finished.has(to) ? sql`now()` : sql`finished_at`}
        WHERE id IN (SELECT job_id FROM p)`
  }

  const carried = (deliveryIds: ReadonlyArray<string>) =>
    sql`SELECT post_id FROM delivery_posts WHERE delivery_id = ANY(${deliveryIds}::text[])`

  /**
   * The posts a change (post.update, post.delete) settles: a webhook call settles what it carried; an email only
   * what no webhook call of the same request carries, as the receiver, not a person's inbox, changes the platform.
   * Otherwise a delivered email would mark a post deleted that the receiver refused to remove.
   */
  const settledBy = (deliveryId: string) =>
    sql`SELECT dp.post_id FROM delivery_posts dp JOIN deliveries d ON d.id = dp.delivery_id
        WHERE dp.delivery_id = ${deliveryId} AND (d.via = 'webhook' OR d.request_key IS NULL OR NOT EXISTS (
          SELECT 1 FROM deliveries w JOIN delivery_posts wp ON wp.delivery_id = w.id
          WHERE w.workspace_id = d.workspace_id AND wp.post_id = dp.post_id
            AND w.request_key = regexp_replace(d.request_key, ':email$', ':webhook')))`

  return {
    /** The publish deliveries answered: their posts are PUBLISHED (also one that had failed, on a redelivery). */
    published: (deliveryIds: ReadonlyArray<string>) =>
      deliveryIds.length === 0
        ? Effect.void
        : Effect.orDie(Effect.asVoid(move(carried(deliveryIds), "published", null))),
    /** The receiver's `{ posts: [{ id, platformPostId, permalink }] }`, for the posts the delivery carried. */
    receiverSaid: (deliveryId: string, answer: ReceiverAnswer) => {
      const posts = answer.posts.filter((p) => p.platformPostId != null || p.permalink != null)
      if (posts.length === 0) return Effect.void
      return Effect.orDie(Effect.asVoid(sql`
        UPDATE posts SET platform_post_id = coalesce(a.platform_post_id, posts.platform_post_id),
          permalink = coalesce(a.permalink, posts.permalink), updated_at = now()
        FROM unnest(${posts.map((p) => p.id)}::text[], ${posts.map((p) => p.platformPostId ?? null)}::text[],
          ${posts.map((p) => p.permalink ?? null)}::text[]) AS a(id, platform_post_id, permalink)
        WHERE posts.id = a.id AND posts.id IN (${carried([deliveryId])})`))
    },
    /** Every publish delivery of these posts is dead: the hand-over failed. */
    publishFailed: (deliveryId: string, reason: string) =>
      Effect.orDie(Effect.asVoid(move(
        sql`SELECT dp.post_id FROM delivery_posts dp WHERE dp.delivery_id = ${deliveryId}
            AND NOT EXISTS (SELECT 1 FROM delivery_posts o JOIN deliveries d ON d.id = o.delivery_id
              WHERE o.post_id = dp.post_id AND o.event = 'post.publish' AND d.state <> 'DEAD')`,
        "publishFailed",
        reason
      ))),
    /** Posts nothing could carry (no webhook address for a webhook-only channel). */
    unhandled: (postIds: ReadonlyArray<string>, reason: string) =>
      postIds.length === 0
        ? Effect.void
        : Effect.orDie(Effect.asVoid(move(sql`SELECT unnest(${postIds}::text[])`, "publishFailed", reason))),
    /** The update reached the receiver: the posts read as changed. */
    updated: (deliveryId: string, changes: PostChanges) =>
      Effect.orDie(Effect.zipRight(
        sql`UPDATE posts SET title = coalesce(${changes.title ?? null}, title), caption = coalesce(${
          changes.caption ?? null
        }, caption),
              hashtags = coalesce(${
          changes.hashtags === undefined ? null : JSON.stringify(changes.hashtags)
        }::jsonb, hashtags),
              updated_at = now()
            WHERE id IN (${settledBy(deliveryId)})`,
        move(settledBy(deliveryId), "updated", null)
      )),
    /** An update that failed every attempt leaves the post as it read, with the reason. */
    updateFailed: (deliveryId: string, reason: string) =>
      Effect.orDie(Effect.asVoid(move(settledBy(deliveryId), "updateFailed", reason))),
    deleted: (deliveryId: string) => Effect.orDie(Effect.asVoid(move(settledBy(deliveryId), "deleted", null))),
    /** A delete that failed every attempt leaves the post where it is, with the reason (SPEC). */
    deleteFailed: (deliveryId: string, reason: string) =>
      Effect.orDie(Effect.asVoid(move(settledBy(deliveryId), "deleteFailed", reason)))
  }
})

export class PostOutcomes
  extends Context.Tag("clipwright/delivery/handover/PostOutcomes")<PostOutcomes, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(PostOutcomes, make)
}
