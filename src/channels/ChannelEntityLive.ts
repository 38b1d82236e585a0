import { Entity } from "@effect/cluster"
import { Effect, Option } from "effect"
import { detailAt, NotFound } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { ConfigChanges } from "../sql/ConfigChanges.js"
import { withOutageRetries } from "../sql/OutageRetries.js"
import { ChannelEntity } from "./ChannelEntity.js"
import { ChannelRepo } from "./ChannelRepo.js"
import { nameInUse, resolveConfig } from "./ChannelRules.js"
import { JobSteps } from "./JobSteps.js"
import { subscriptionHandlers } from "./SubscriptionEntityHandlers.js"

export const ChannelEntityLive = ChannelEntity.toLayer(
  Effect.gen(function*() {
    const repo = yield* ChannelRepo
    const changes = yield* ConfigChanges
    // Every handler changes what events reach: the ingest path's memory of this workspace is dropped on every node.
    const announced = <A, E, R>(workspaceId: WorkspaceId, write: Effect.Effect<A, E, R>) =>
      Effect.tap(write, () => changes.announce(workspaceId))
    const channelId = (yield* Entity.CurrentAddress).entityId
    const subscriptions = yield* subscriptionHandlers
    // The job and post steps are publishing's, reached through a port (JobSteps.ts).
    const steps = yield* JobSteps
    const notFound = () => new NotFound({ message: `No channel ${channelId}.` })

    // Every write holds the brand it leaves the channel wearing, so no channel is left wearing a deleted brand.
    const holdBrand = (workspaceId: WorkspaceId, brandId: string) =>
      Effect.flatMap(
        repo.lockBrand(workspaceId, brandId),
        Option.match({
          onNone: () =>
            Effect.fail(
              new NotFound({ message: `No brand ${brandId}.`, details: [detailAt(["brandId"], "no such brand")] })
            ),
          onSome: () => Effect.void
        })
      )

    return ChannelEntity.of(withOutageRetries({
      Create: ({ payload }) =>
        Effect.gen(function*() {
          const { config, requestId, workspaceId } = payload
          yield* holdBrand(workspaceId, config.brandId)
          const inserted = yield* repo.insert(workspaceId, channelId, config, requestId)
          if (Option.isSome(inserted)) return
          // Delivery is at-least-once: a re-run of the request that created the row is a success.
          const existing = yield* repo.find(workspaceId, channelId)
          if (Option.isSome(existing) && existing.value.createRequestId === requestId) return
          return yield* nameInUse(config.name)
        }).pipe(
          (create) => announced(payload.workspaceId, repo.withTransaction(create)),
          Effect.withSpan("Channel.create", { attributes: { channelId } })
        ),

      Update: ({ payload }) =>
        Effect.gen(function*() {
          const { changes, hasWebhook, workspaceId } = payload
          const stored = yield* Effect.flatMap(
            repo.findLive(workspaceId, channelId),
            Option.match({
              onNone: () => Effect.fail(notFound()),
              onSome: Effect.succeed
            })
          )
          const name = changes.name ?? stored.name
          const brandId = changes.brandId ?? stored.brandId
          const config = yield* resolveConfig(stored, changes, { brandId, name, hasWebhook })
          yield* holdBrand(workspaceId, brandId)
          const written = yield* repo.write(workspaceId, channelId, config).pipe(
            Effect.catchTag("NameTaken", () => Effect.fail(nameInUse(name)))
          )
          if (Option.isNone(written)) return yield* notFound()
        }).pipe(
          (update) => announced(payload.workspaceId, repo.withTransaction(update)),
          Effect.withSpan("Channel.update", { attributes: { channelId } })
        ),

      Delete: ({ payload }) =>
        announced(payload.workspaceId, repo.markDeleted(payload.workspaceId, channelId)).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(notFound()),
            onSome: () => Effect.map(steps.cancelAllOf(payload.workspaceId, channelId), (cancelled) => ({ cancelled }))
          })),
          Effect.withSpan("Channel.delete", { attributes: { channelId } })
        ),

      Subscribe: ({ payload }) =>
        announced(payload.workspaceId, repo.withTransaction(subscriptions.subscribe(channelId, payload))).pipe(
          Effect.withSpan("Channel.subscribe", { attributes: { channelId } })
        ),

      ChangeSubscription: ({ payload }) =>
        announced(payload.workspaceId, repo.withTransaction(subscriptions.change(channelId, payload))).pipe(
          Effect.withSpan("Channel.changeSubscription", { attributes: { channelId } })
        ),

      Unsubscribe: ({ payload }) =>
        announced(payload.workspaceId, repo.withTransaction(subscriptions.unsubscribe(channelId, payload))).pipe(
          Effect.withSpan("Channel.unsubscribe", { attributes: { channelId } })
        ),

      StreamTemplateChanged: ({ payload }) =>
        announced(payload.workspaceId, subscriptions.followTemplate(channelId, payload)).pipe(
          Effect.withSpan("Channel.streamTemplateChanged", { attributes: { channelId } })
        ),

      StartJob: ({ payload }) =>
        steps.start(payload).pipe(
          Effect.orDie,
          Effect.withSpan("Channel.startJob", { attributes: { channelId, jobId: payload.jobId } })
        ),

      JobRenderEnded: ({ payload }) =>
        steps.renderEnded(payload).pipe(
          Effect.orDie,
          Effect.withSpan("Channel.jobRenderEnded", { attributes: { channelId, jobId: payload.jobId } })
        ),

      DecideApproval: ({ payload }) =>
        steps.decide(payload).pipe(
          Effect.withSpan("Channel.decideApproval", { attributes: { channelId, approvalId: payload.approvalId } })
        ),

      CancelJob: ({ payload }) =>
        steps.cancel(payload).pipe(
          Effect.withSpan("Channel.cancelJob", { attributes: { channelId, jobId: payload.jobId } })
        ),

      UpdateJob: ({ payload }) =>
        steps.update(payload).pipe(
          Effect.withSpan("Channel.updateJob", { attributes: { channelId, jobId: payload.jobId } })
        ),

      DeleteJob: ({ payload }) =>
        steps.remove(payload).pipe(
          Effect.withSpan("Channel.deleteJob", { attributes: { channelId, jobId: payload.jobId } })
        ),

      RepostJob: ({ payload }) =>
        steps.repost(payload).pipe(
          Effect.withSpan("Channel.repostJob", { attributes: { channelId, jobId: payload.jobId } })
        )
    }))
  }),
  { maxIdleTime: "5 minutes" }
)
