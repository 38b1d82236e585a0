import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { AppConfig } from "../../Config.js"
import { Conflict, detailAt, NotFound } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { newUlid } from "../../domain/Ulid.js"
import { previewPath } from "../../media/MediaLibrary.js"
import { Signing } from "../../storage/Signing.js"
import type { DeleteJob, RepostJob, UpdateJob } from "../ChannelEntity.js"
import { type Batch, DeliveryMaker } from "../handover/DeliveryMaker.js"
import { DeliveryRepo } from "../handover/DeliveryRepo.js"
import { DueRepo } from "../handover/DueRepo.js"
import { HandOverEntity } from "../handover/HandOverEntity.js"
import { HANDED_LINK_TTL } from "../handover/PostOuts.js"
import { JobDispatcher } from "./JobDispatcher.js"
import { JobRepo } from "./JobRepo.js"
import { deletableFrom, type JobStatus, repostableFrom, updatableFrom } from "./JobStatus.js"

/**
 * The channel entity's part in what follows a publication: an update or removal sent on to the receiver (signed
 * `post.update` / `post.delete` deliveries, made once per request and started through their HandOver owner's timer),
 * and a repost (a new job of the same event on the same channel).
 */
export const postActions = Effect.gen(function*() {
  const jobs = yield* JobRepo
  const due = yield* DueRepo
  const deliveries = yield* DeliveryRepo
  const maker = yield* DeliveryMaker
  const dispatcher = yield* JobDispatcher
  const handOver = yield* HandOverEntity.client
  const signing = yield* Signing
  const sql = yield* SqlClient.SqlClient
  const { publicBaseUrl } = yield* AppConfig

  const jobIn = (workspaceId: WorkspaceId, jobId: string, allowed: ReadonlyArray<JobStatus>, action: string) =>
    Effect.gen(function*() {
      const found = yield* jobs.findToStart(workspaceId, jobId)
      if (Option.isNone(found)) return yield* new NotFound({ message: `No job ${jobId}.` })
      if (!allowed.includes(found.value.status)) {
        return yield* new Conflict({
          message: `Job ${jobId} is ${found.value.status}: only a job with published posts can be ${action}.`
        })
      }
    })

  const mediaLink = (workspaceId: WorkspaceId, mediaFileId: string) =>
    Effect.gen(function*() {
      const rows = yield* sql`SELECT id FROM media_files
        WHERE workspace_id = ${workspaceId} AND id = ${mediaFileId} AND deleted_at IS NULL AND kind IN ('Video', 'Image')`
      if (rows.length === 0) {
        const message = `No video or picture ${mediaFileId} in the media library.`
        return yield* new NotFound({ message, details: [detailAt(["mediaFileId"], message)] })
      }
      const link = yield* signing.signedUrl(publicBaseUrl, previewPath(mediaFileId), HANDED_LINK_TTL)
      return { mediaFileId, url: link.url, expiresAt: link.expiresAt.toISOString() }
    }).pipe(Effect.catchTag("SqlError", Effect.die))

  /** Makes the batch's deliveries unless this request made them already, then starts each through its owner. */
  const queue = (workspaceId: WorkspaceId, jobId: string, requestId: string, batch: Omit<Batch, "posts" | "requestKey">) =>
    Effect.gen(function*() {
      const requestKey = `${batch.event}:${requestId}`
      const keys = [`${requestKey}:webhook`, `${requestKey}:email`]
      let queued = yield* deliveries.byRequestKeys(workspaceId, keys)
      if (queued.length === 0) {
        const posts = yield* due.postOf(workspaceId, jobId)
        const targets = yield* deliveries.targets([workspaceId])
        const made = yield* maker.make([{ ...batch, posts, requestKey }], new Map(targets.map((t) => [t.workspaceId as string, t])), new Date())
        yield* deliveries.withTransaction(deliveries.insert(made.rows, made.posts)).pipe(Effect.orDie)
        queued = yield* deliveries.byRequestKeys(workspaceId, keys)
      }
      yield* Effect.forEach(queued, (d) =>
        handOver(d.owner).Attempt({ workspaceId, deliveryId: d.id, attempt: 1, at: Date.now() }, { discard: true }), { discard: true })
        .pipe(Effect.orDie)
      return { ok: true as const, queued: queued.length }
    })

  const update = ({ changes, jobId, requestId, workspaceId }: UpdateJob) =>
    Effect.gen(function*() {
      yield* jobIn(workspaceId, jobId, updatableFrom, "updated")
      const media = changes.mediaFileId === undefined ? undefined : yield* mediaLink(workspaceId, changes.mediaFileId)
      return yield* queue(workspaceId, jobId, requestId, { event: "post.update", changes, media })
    })

  const remove = ({ jobId, requestId, workspaceId }: DeleteJob) =>
    Effect.gen(function*() {
      yield* jobIn(workspaceId, jobId, deletableFrom, "deleted")
      return yield* queue(workspaceId, jobId, requestId, { event: "post.delete" })
    })

  const repost = ({ jobId, requestId, workspaceId }: RepostJob) =>
    Effect.gen(function*() {
      yield* jobIn(workspaceId, jobId, repostableFrom, "reposted")
      const postGroupId = yield* jobs.repost(workspaceId, jobId, newUlid(), requestId)
      yield* dispatcher.wake
      return { ok: true as const, postGroupId }
    })

  return { update, remove, repost }
})
