import { Entity } from "@effect/cluster"
import { Effect, Option } from "effect"
import { Conflict, NotFound } from "../domain/Errors.js"
import { StreamRepo } from "./StreamRepo.js"
import { StreamEntity } from "./StreamEntity.js"

export const StreamEntityLive = StreamEntity.toLayer(
  Effect.gen(function*() {
    const repo = yield* StreamRepo
    const streamId = (yield* Entity.CurrentAddress).entityId

    // Another workspace's stream answers exactly like a missing one.
    const requireLive = (workspaceId: string) =>
      repo.findById(streamId).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(notFound()),
          onSome: (row) => row.workspaceId === workspaceId && row.deletedAt === null
            ? Effect.succeed(row)
            : Effect.fail(notFound())
        }))
      )
    const notFound = () => new NotFound({ message: `No stream ${streamId}.` })

    return StreamEntity.of({
      Create: ({ payload }) =>
        Effect.gen(function*() {
          // `requestId` is not a column: it is stored as `create_request_id`.
          const { requestId, ...fields } = payload
          const inserted = yield* repo.insert({ id: streamId, ...fields, createRequestId: requestId })
          if (inserted.length > 0) return
          const existing = yield* repo.findById(streamId)
          // Delivery is at-least-once: a re-run of the request that created the row is a success.
          if (Option.isSome(existing) && existing.value.createRequestId === requestId) return
          return yield* new Conflict({ message: `The stream id ${streamId} is taken; choose another or omit id.` })
        }).pipe(Effect.withSpan("Stream.create", { attributes: { streamId } })),
      Update: ({ payload }) =>
        repo.update(streamId, payload.workspaceId, payload).pipe(
          Effect.flatMap((changed) => changed ? Effect.void : Effect.fail(notFound())),
          Effect.withSpan("Stream.update", { attributes: { streamId } })
        ),
      Delete: ({ payload }) =>
        requireLive(payload.workspaceId).pipe(
          Effect.zipRight(repo.markDeleted(streamId)),
          // Channels arrive with a later issue; until then no channel can be listening.
          Effect.as({ stopped: 0 }),
          Effect.withSpan("Stream.delete", { attributes: { streamId } })
        )
    })
  }),
  { maxIdleTime: "5 minutes" }
)
