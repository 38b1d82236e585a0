import { Effect, Either, Option } from "effect"
import { InvalidStateTransition, NotFound } from "../domain/Errors.js"
import type { WorkspaceId } from "../domain/Principal.js"
import { recordFiring } from "../observability/Metrics.js"
import { TemplateClearance } from "../templates/TemplateClearance.js"
import { PackageFiring } from "./PackageFiring.js"
import { changedContent } from "./PackageRules.js"
import { packageTimers } from "./PackageTimers.js"
import type { AddPackage, ChangePackage, Fire, RemovePackage, RepointMedia } from "./PostListEntity.js"
import type { PackageRecord } from "./PostListRecord.js"
import { PostListRepo } from "./PostListRepo.js"

const contentOf = (row: PackageRecord) => ({
  title: row.title,
  templateId: row.templateId,
  templateVariant: row.templateVariant,
  templateVersion: row.templateVersion,
  data: row.data,
  scheduledFor: row.scheduledFor.getTime()
})

/**
 * The list entity's package writes and its timers. Each handler is safe to run again: writes are keyed by the
 * request, and every timer is set from the stored row, so a re-run sets the same timer (stored once) again.
 */
export const packageHandlers = (queueId: string) =>
  Effect.gen(function*() {
    const repo = yield* PostListRepo
    const firing = yield* PackageFiring
    const clearance = yield* TemplateClearance
    const { arm } = yield* packageTimers
    const missing = (packageId: string) => new NotFound({ message: `List ${queueId} has no post ${packageId}.` })

    /** Sets the stored package's timer, if it still waits for its time. */
    const armStored = (workspaceId: WorkspaceId, packageId: string) =>
      Effect.flatMap(repo.findPackage(workspaceId, queueId, packageId), (found) =>
        Option.isSome(found) && found.value.state === "SCHEDULED"
          ? arm(workspaceId, queueId, [found.value])
          : Effect.void)

    const add = ({ content, packageId, requestId, workspaceId }: AddPackage) =>
      Effect.gen(function*() {
        const list = yield* repo.findList(workspaceId, queueId)
        if (Option.isNone(list) || list.value.deletedAt !== null) {
          return yield* new NotFound({ message: `No post list ${queueId}.` })
        }
        yield* repo.insertPackage({
          ...content,
          id: packageId,
          workspaceId,
          queueId,
          scheduledFor: new Date(content.scheduledFor),
          state: "SCHEDULED",
          armed: 0,
          armedBy: requestId,
          firedAt: null,
          ingestEventId: null,
          error: null,
          createRequestId: requestId
        })
        yield* armStored(workspaceId, packageId)
      })

    const change = ({ changes, packageId, requestId, scheduledFor, workspaceId }: ChangePackage) =>
      Effect.gen(function*() {
        const found = yield* repo.findPackage(workspaceId, queueId, packageId)
        if (Option.isNone(found)) {
          return yield* missing(packageId)
        }
        const stored = found.value
        // A cancel run again finds its own work done.
        if (changes.state === "CANCELLED" && stored.state === "CANCELLED") {
          return
        }
        if (stored.state !== "SCHEDULED") {
          return yield* new InvalidStateTransition({
            message: `Post ${packageId} is ${stored.state}; only SCHEDULED posts can change.`
          })
        }
        const { state, ...fields } = changes
        // A cancel alone needs no content check: a stricter newest build must not keep a post from being cancelled.
        if (Object.keys(fields).length > 0 || scheduledFor !== undefined) {
          const next = changedContent(contentOf(stored), fields, scheduledFor, yield* clearance.clearedFor(workspaceId))
          if (Either.isLeft(next)) {
            return yield* next.left
          }
          yield* repo.writePackage(workspaceId, queueId, packageId, next.right, `change:${requestId}`)
        }
        if (state === "CANCELLED") {
          return yield* Effect.asVoid(repo.cancelPackage(workspaceId, queueId, packageId))
        }
        if (scheduledFor !== undefined) {
          yield* armStored(workspaceId, packageId)
        }
      })

    const remove = ({ packageId, workspaceId }: RemovePackage) =>
      Effect.flatMap(repo.removePackage(workspaceId, queueId, packageId), (removed) =>
        Option.isSome(removed) ? Effect.void : Effect.fail(missing(packageId)))

    /** A timer: nothing unless the package still waits for exactly this timer and its list is on. */
    const fire = ({ armed, at, packageId, workspaceId }: Fire) =>
      Effect.gen(function*() {
        const found = yield* repo.findPackage(workspaceId, queueId, packageId)
        if (Option.isNone(found)) {
          return
        }
        const pkg = found.value
        if (pkg.state !== "SCHEDULED" || pkg.armed !== armed || pkg.scheduledFor.getTime() !== at) {
          return
        }
        const list = yield* repo.findList(workspaceId, queueId)
        if (Option.isNone(list) || list.value.deletedAt !== null || !list.value.enabled) {
          return
        }
        const fired = yield* firing.fire(workspaceId, list.value.name, pkg, `fire:${pkg.id}:${armed}`)
        yield* repo.markFired(workspaceId, queueId, pkg.id, fired.ingestEventId, fired.firedAt)
        yield* recordFiring(pkg.scheduledFor, fired.firedAt)
      })

    const repoint = ({ fileId, nextId, workspaceId }: RepointMedia) =>
      repo.repointMedia(workspaceId, queueId, fileId, nextId)

    return { add, change, remove, fire, repoint }
  })
