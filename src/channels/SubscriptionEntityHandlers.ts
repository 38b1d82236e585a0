import { Effect, Option } from "effect"
import { Conflict, NotFound } from "../domain/Errors.js"
import { findFeed } from "../feeds/FeedCatalogue.js"
import type { ChangeSubscription, StreamTemplateChanged, Subscribe, Unsubscribe } from "./ChannelEntity.js"
import { SubscriptionRepo } from "./SubscriptionRepo.js"
import { checkPins } from "./SubscriptionRules.js"

/** The channel entity's subscription writes: each holds the channel row, so a deleted channel takes none. */
export const subscriptionHandlers = Effect.gen(function*() {
  const repo = yield* SubscriptionRepo
  const channelGone = (channelId: string) => new NotFound({ message: `No channel ${channelId}.` })
  const holdChannel = (workspaceId: Subscribe["workspaceId"], channelId: string) =>
    Effect.flatMap(
      repo.lockChannel(workspaceId, channelId),
      Option.match({
        onNone: () => Effect.fail(channelGone(channelId)),
        onSome: () => Effect.void
      })
    )
  const requireSubscription = (workspaceId: Subscribe["workspaceId"], channelId: string, id: string) =>
    Effect.flatMap(
      repo.find(workspaceId, channelId, id),
      Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `Channel ${channelId} has no subscription ${id}.` })),
        onSome: Effect.succeed
      })
    )

  const subscribe = (channelId: string, { requestId, subscription, workspaceId }: Subscribe) =>
    Effect.gen(function*() {
      yield* holdChannel(workspaceId, channelId)
      const inserted = yield* repo.insert(workspaceId, channelId, subscription, requestId)
      if (Option.isSome(inserted)) return
      // Delivery is at-least-once: a re-run of the request that added the row is a success.
      const existing = yield* repo.findInput(workspaceId, channelId, subscription.inputKey)
      if (Option.isSome(existing) && existing.value.createRequestId === requestId) return
      return yield* new Conflict({ message: `Channel ${channelId} already subscribes to ${subscription.inputKey}.` })
    })

  const change = (channelId: string, { changes, subscriptionId, workspaceId }: ChangeSubscription) =>
    Effect.gen(function*() {
      yield* holdChannel(workspaceId, channelId)
      const stored = yield* requireSubscription(workspaceId, channelId, subscriptionId)
      const state = {
        templateVariant: changes.templateVariant === undefined ? stored.templateVariant : changes.templateVariant,
        templateVersion: changes.templateVersion === undefined ? stored.templateVersion : changes.templateVersion,
        enabled: changes.enabled ?? stored.enabled
      }
      const feedVariant = stored.feedId === null
        ? undefined
        : Option.getOrUndefined(Option.map(findFeed(stored.feedId), ({ feed }) => feed.templateVariant))
      yield* checkPins(stored.kind, stored.templateId, feedVariant, state)
      yield* repo.update(workspaceId, channelId, subscriptionId, state)
    })

  const unsubscribe = (channelId: string, { subscriptionId, workspaceId }: Unsubscribe) =>
    Effect.gen(function*() {
      yield* holdChannel(workspaceId, channelId)
      const removed = yield* repo.remove(workspaceId, channelId, subscriptionId)
      if (Option.isNone(removed)) {
        return yield* new NotFound({ message: `Channel ${channelId} has no subscription ${subscriptionId}.` })
      }
    })

  // A deleted channel's subscriptions follow too: harmless, and no lock is needed for a single statement.
  const followTemplate = (channelId: string, { streamId, templateId, workspaceId }: StreamTemplateChanged) =>
    repo.followTemplate(workspaceId, channelId, streamId, templateId)

  return { subscribe, change, unsubscribe, followTemplate }
})
