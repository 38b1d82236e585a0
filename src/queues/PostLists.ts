import { Clock, Context, Effect, Either, FiberRef, Layer, Option } from "effect"
import { entityCall } from "../domain/EntityCalls.js"
import { InvalidStateTransition, NotFound } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { CurrentRequestId } from "../domain/RequestId.js"
import { ulidForRequest } from "../domain/Ulid.js"
import { TemplateClearance } from "../templates/TemplateClearance.js"
import { newContent, timeOf } from "./PackageRules.js"
import type { ChangePackageBody, CreatePackageBody, UpdateQueueBody } from "./PostList.js"
import { PostListEntity } from "./PostListEntity.js"
import { PostListQuery } from "./PostListQuery.js"
import { toPackage, toQueue } from "./Views.js"

/** Post lists and their packages: reads from SQL; every change checked here and written by the list's entity. */
const make = Effect.gen(function*() {
  const query = yield* PostListQuery
  const entity = yield* PostListEntity.client
  const clearance = yield* TemplateClearance
  const requestId = FiberRef.get(CurrentRequestId)

  const listsOf = (workspaceId: WorkspaceId, queueId: string | null) =>
    Effect.gen(function*() {
      const rows = yield* query.lists(workspaceId, queueId)
      const ids = rows.map((row) => row.id)
      const [packages, subscribers] = yield* Effect.all([
        query.packages(workspaceId, ids),
        query.subscribers(workspaceId, ids)
      ])
      return rows.map((row) => toQueue(row, packages, subscribers))
    })

  const one = (workspaceId: WorkspaceId, queueId: string) =>
    Effect.flatMap(
      listsOf(workspaceId, queueId),
      ([queue]) =>
        queue === undefined ? Effect.fail(new NotFound({ message: `No post list ${queueId}.` })) : Effect.succeed(queue)
    )

  /** The live list (its row only), or 404. */
  const requireList = (workspaceId: WorkspaceId, queueId: string) =>
    Effect.flatMap(
      query.lists(workspaceId, queueId),
      (rows) => rows.length === 0 ? Effect.fail(new NotFound({ message: `No post list ${queueId}.` })) : Effect.void
    )

  const onePackage = (workspaceId: WorkspaceId, queueId: string, packageId: string) =>
    Effect.flatMap(
      query.onePackage(workspaceId, queueId, packageId),
      Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `List ${queueId} has no post ${packageId}.` })),
        onSome: (row) => Effect.succeed(toPackage(row))
      })
    )

  const list = Effect.fn("PostLists.list")(function*(workspaceId: WorkspaceId) {
    return { queues: yield* listsOf(workspaceId, null) }
  })

  const create = Effect.fn("PostLists.create")(function*(workspaceId: WorkspaceId, name: string) {
    const request = yield* requestId
    const id = ulidForRequest(request, `queue:${workspaceId}`)
    yield* entityCall(entity(id).Create({ requestId: request, workspaceId, name }))
    return { queue: yield* one(workspaceId, id) }
  })

  const update = Effect.fn("PostLists.update")(function*(workspaceId: WorkspaceId, id: string, body: UpdateQueueBody) {
    yield* requireList(workspaceId, id)
    yield* entityCall(entity(id).Update({ requestId: yield* requestId, workspaceId, ...body }))
    return { queue: yield* one(workspaceId, id) }
  })

  // The entity answers a list it never had (or another workspace's) as missing; a retried delete gets its first answer.
  const remove = Effect.fn("PostLists.delete")(function*(workspaceId: WorkspaceId, id: string) {
    const { removedFromChannels } = yield* entityCall(entity(id).Delete({ requestId: yield* requestId, workspaceId }))
    return { ok: true as const, removedFromChannels }
  })

  const addPackage = Effect.fn("PostLists.addPackage")(function*(
    workspaceId: WorkspaceId,
    queueId: string,
    body: CreatePackageBody
  ) {
    yield* requireList(workspaceId, queueId)
    const now = yield* Clock.currentTimeMillis
    const at = yield* Either.match(timeOf(body.scheduledFor, now), { onLeft: Effect.fail, onRight: Effect.succeed })
    const cleared = yield* clearance.clearedFor(workspaceId)
    const content = yield* Either.match(newContent(body, at, cleared), { onLeft: Effect.fail, onRight: Effect.succeed })
    const request = yield* requestId
    const packageId = ulidForRequest(request, `package:${queueId}`)
    yield* entityCall(entity(queueId).AddPackage({ requestId: request, workspaceId, packageId, content }))
    return { package: yield* onePackage(workspaceId, queueId, packageId) }
  })

  const changePackage = Effect.fn("PostLists.changePackage")(function*(
    workspaceId: WorkspaceId,
    queueId: string,
    packageId: string,
    body: ChangePackageBody
  ) {
    const stored = yield* onePackage(workspaceId, queueId, packageId)
    if (stored.state !== "SCHEDULED" && !(stored.state === "CANCELLED" && body.state === "CANCELLED")) {
      return yield* new InvalidStateTransition({
        message: `Post ${packageId} is ${stored.state}; only SCHEDULED posts can change.`
      })
    }
    const { scheduledFor: sent, ...changes } = body
    const now = yield* Clock.currentTimeMillis
    const scheduledFor = sent === undefined
      ? undefined
      : yield* Either.match(timeOf(sent, now), { onLeft: Effect.fail, onRight: Effect.succeed })
    yield* entityCall(
      entity(queueId).ChangePackage({
        requestId: yield* requestId,
        workspaceId,
        packageId,
        changes,
        ...(scheduledFor === undefined ? {} : { scheduledFor })
      })
    )
    return { package: yield* onePackage(workspaceId, queueId, packageId) }
  })

  const removePackage = Effect.fn("PostLists.removePackage")(function*(
    workspaceId: WorkspaceId,
    queueId: string,
    packageId: string
  ) {
    yield* entityCall(entity(queueId).RemovePackage({ requestId: yield* requestId, workspaceId, packageId }))
    return { ok: true as const }
  })

  return { list, create, update, remove, addPackage, changePackage, removePackage }
})

export class PostLists extends Context.Tag("clipwright/queues/PostLists")<
  PostLists,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(PostLists, make)
}
