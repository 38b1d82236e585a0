import { Entity } from "@effect/cluster"
import { Effect, Option, Schedule } from "effect"
import { ChannelEntity } from "../channels/ChannelEntity.js"
import { entityCall } from "../domain/EntityCalls.js"
import { Conflict, NotFound } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { withOutageRetries } from "../sql/OutageRetries.js"
import { packageHandlers } from "./PackageHandlers.js"
import { packageTimers } from "./PackageTimers.js"
import { PostListEntity } from "./PostListEntity.js"
import { PostListRepo } from "./PostListRepo.js"

const nameInUse = (name: string) =>
  new Conflict({ message: `A post list named "${name}" already exists in this workspace.` })

export const PostListEntityLive = PostListEntity.toLayer(
  Effect.gen(function*() {
    const repo = yield* PostListRepo
    const channel = yield* ChannelEntity.client
    const queueId = (yield* Entity.CurrentAddress).entityId
    const packages = yield* packageHandlers(queueId)
    const { arm } = yield* packageTimers
    const notFound = () => new NotFound({ message: `No post list ${queueId}.` })
    const requireLive = (workspaceId: WorkspaceId) =>
      Effect.flatMap(
        repo.findList(workspaceId, queueId),
        (found) =>
          Option.isSome(found) && found.value.deletedAt === null ? Effect.succeed(found.value) : Effect.fail(notFound())
      )

    /** The channel's subscription to this list goes through the channel's entity, its only writer. */
    const unsubscribe = (workspaceId: WorkspaceId, requestId: string, channelId: string, subscriptionId: string) =>
      entityCall(channel(channelId).Unsubscribe({ requestId, workspaceId, subscriptionId })).pipe(
        Effect.as(1),
        // A channel deleted meanwhile holds nothing any more.
        Effect.catchTag("NotFound", () => Effect.succeed(0)),
        Effect.retry({ schedule: Schedule.exponential("200 millis"), times: 8 }),
        Effect.orDie
      )

    return PostListEntity.of(withOutageRetries({
      Create: ({ payload }) =>
        Effect.gen(function*() {
          const { name, requestId, workspaceId } = payload
          const inserted = yield* repo.insertList(workspaceId, queueId, name, requestId)
          if (Option.isSome(inserted)) return
          // Delivery is at-least-once: a re-run of the request that created the row is a success.
          const existing = yield* repo.findList(workspaceId, queueId)
          if (Option.isSome(existing) && existing.value.createRequestId === requestId) return
          return yield* nameInUse(name)
        }).pipe(Effect.withSpan("PostList.create", { attributes: { queueId } })),

      Update: ({ payload }) =>
        Effect.gen(function*() {
          const { requestId, workspaceId } = payload
          const stored = yield* requireLive(workspaceId)
          const name = payload.name ?? stored.name
          const enabled = payload.enabled ?? stored.enabled
          yield* repo.updateList(workspaceId, queueId, name, enabled).pipe(
            Effect.catchTag("NameTaken", () => Effect.fail(nameInUse(name)))
          )
          if (!enabled) return
          // Switched on again: posts whose time passed while it was off fire now (late, not skipped).
          const key = `update:${requestId}`
          if (!stored.enabled) yield* repo.rearmPast(workspaceId, queueId, key)
          yield* arm(workspaceId, queueId, yield* repo.armedBy(workspaceId, queueId, key))
        }).pipe(Effect.withSpan("PostList.update", { attributes: { queueId } })),

      Delete: ({ payload }) =>
        Effect.gen(function*() {
          const { requestId, workspaceId } = payload
          const found = yield* repo.findList(workspaceId, queueId)
          if (Option.isNone(found)) return yield* notFound()
          const stored = found.value
          if (stored.deletedAt !== null) {
            if (stored.deleteRequestId === requestId) return { removedFromChannels: stored.removedFromChannels ?? 0 }
            return yield* notFound()
          }
          const subscriptions = yield* repo.subscriptionsTo(workspaceId, queueId)
          const removed = yield* Effect.forEach(subscriptions, (s) =>
            unsubscribe(workspaceId, requestId, s.channelId, s.subscriptionId), { concurrency: 8 })
          const removedFromChannels = removed.reduce((sum, n) =>
            sum + n, 0)
          yield* repo.withTransaction(Effect.zipRight(
            repo.removePackagesOf(workspaceId, queueId),
            repo.markDeleted(workspaceId, queueId, requestId, removedFromChannels)
          ))
          return { removedFromChannels }
        }).pipe(Effect.withSpan("PostList.delete", { attributes: { queueId } })),

      AddPackage: ({ payload }) =>
        packages.add(payload).pipe(
          Effect.withSpan("PostList.addPackage", { attributes: { queueId, packageId: payload.packageId } })
        ),

      ChangePackage: ({ payload }) =>
        packages.change(payload).pipe(
          Effect.withSpan("PostList.changePackage", { attributes: { queueId, packageId: payload.packageId } })
        ),

      RemovePackage: ({ payload }) =>
        packages.remove(payload).pipe(
          Effect.withSpan("PostList.removePackage", { attributes: { queueId, packageId: payload.packageId } })
        ),

      Fire: ({ payload }) =>
        packages.fire(payload).pipe(
          Effect.withSpan("PostList.fire", { attributes: { queueId, packageId: payload.packageId } })
        ),

      RepointMedia: ({ payload }) =>
        packages.repoint(payload).pipe(Effect.withSpan("PostList.repointMedia", { attributes: { queueId } }))
    }))
  }),
  { maxIdleTime: "5 minutes" }
)
