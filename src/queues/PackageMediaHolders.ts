import { Effect, FiberRef, Layer } from "effect"
import { entityCall } from "../domain/EntityCalls.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import type { MediaUse } from "../media/MediaFile.js"
import { type HeldFile, MediaHolders } from "../media/MediaHolders.js"
import { PostListEntity } from "./PostListEntity.js"
import { PostListQuery } from "./PostListQuery.js"

/**
 * Scheduled posts as holders of library files, laid over the holders below (brand slots): the media library's
 * `MediaHolders` port then answers both. Only a replacement moves a post (a rename keeps the id its data names; a
 * deleted file is left named, and its post's render says so). The move is written by each list's entity, the only
 * writer of its packages, so it cannot cross a change or a firing of the same post.
 */
export const PackageMediaHolders = Layer.effect(
  MediaHolders,
  Effect.gen(function*() {
    const below = yield* MediaHolders
    const query = yield* PostListQuery
    const lists = yield* PostListEntity.client

    const packageUses = (workspaceId: WorkspaceId, id: string) =>
      Effect.map(query.uses(workspaceId, id), (rows) =>
        rows.map((row): MediaUse => ({
          kind: "scheduledPost",
          queueId: row.queueId,
          queueName: row.queueName,
          packageId: row.packageId,
          title: row.title,
          scheduledFor: row.scheduledFor.toISOString()
        })))

    const repointPackages = (workspaceId: WorkspaceId, id: string, next: HeldFile | null) =>
      Effect.gen(function*() {
        if (next === null || next.id === id) return
        const requestId = yield* FiberRef.get(CurrentRequestId)
        const holding = new Set((yield* query.uses(workspaceId, id)).map((row) => row.queueId))
        yield* Effect.forEach(holding, (queueId) =>
          entityCall(lists(queueId).RepointMedia({ requestId, workspaceId, fileId: id, nextId: next.id })), {
          concurrency: 8,
          discard: true
        })
      }).pipe(Effect.withSpan("PackageMediaHolders.repoint", { attributes: { fileId: id } }))

    return MediaHolders.of({
      uses: (workspaceId, id) =>
        Effect.zipWith(
          below.uses(workspaceId, id),
          packageUses(workspaceId, id),
          (slots, posts) => [...slots, ...posts]
        ),
      repoint: (workspaceId, id, next) =>
        Effect.zipRight(below.repoint(workspaceId, id, next), repointPackages(workspaceId, id, next))
    })
  })
)
