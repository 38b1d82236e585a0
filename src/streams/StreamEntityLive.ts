import { Entity } from "@effect/cluster"
import { Effect, Option } from "effect"
import { Conflict, NotFound } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { ConfigChanges } from "../sql/ConfigChanges.js"
import { withOutageRetries } from "../sql/OutageRetries.js"
import { StreamEntity } from "./StreamEntity.js"
import { StreamRepo } from "./StreamRepo.js"

export const StreamEntityLive = StreamEntity.toLayer(
  Effect.gen(function*() {
    const repo = yield* StreamRepo
    const changes = yield* ConfigChanges
    const streamId = (yield* Entity.CurrentAddress).entityId

    const requireLive = (workspaceId: WorkspaceId) =>
      Effect.flatMap(
        repo.findLive(workspaceId, streamId),
        Option.match({
          onNone: () => Effect.fail(notFound()),
          onSome: Effect.succeed
        })
      )
    const notFound = () => new NotFound({ message: `No stream ${streamId}.` })

    return StreamEntity.of(withOutageRetries({
      Create: ({ payload }) =>
        Effect.gen(function*() {
          // `requestId` is not a column: it is stored as `create_request_id`.
          const { requestId, ...fields } = payload
          const inserted = yield* repo.insert({ id: streamId, ...fields, createRequestId: requestId })
          if (Option.isSome(inserted)) return
          const existing = yield* repo.findInAnyWorkspace(streamId)
          // Delivery is at-least-once: a re-run of the request that created the row is a success.
          if (Option.isSome(existing) && existing.value.createRequestId === requestId) return
          return yield* new Conflict({ message: `The stream id ${streamId} is taken; choose another or omit id.` })
        }).pipe(
          Effect.tap(() => changes.announce(payload.workspaceId)),
          Effect.withSpan("Stream.create", { attributes: { streamId } })
        ),
      Update: ({ payload }) =>
        repo.update(payload.workspaceId, streamId, payload).pipe(
          Effect.flatMap((changed) => changed ? Effect.void : Effect.fail(notFound())),
          Effect.tap(() => changes.announce(payload.workspaceId)),
          Effect.withSpan("Stream.update", { attributes: { streamId } })
        ),
      Delete: ({ payload }) =>
        requireLive(payload.workspaceId).pipe(
          Effect.zipRight(repo.markDeleted(payload.workspaceId, streamId)),
          Effect.tap(() => changes.announce(payload.workspaceId)),
          Effect.withSpan("Stream.delete", { attributes: { streamId } })
        )
    }))
  }),
  { maxIdleTime: "5 minutes" }
)
