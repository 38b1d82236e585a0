import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { DeleteJob, RepostJob, UpdateJob } from "../../channels/ChannelEntity.js"
import { AppConfig } from "../../Config.js"
import { FollowUps } from "../../delivery/handover/FollowUps.js"
import { HANDED_LINK_TTL } from "../../delivery/handover/PostOuts.js"
import { Conflict, detailAt, NotFound } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { newUlid } from "../../domain/Ulid.js"
import { previewPath } from "../../media/MediaLibrary.js"
import type { JobStatus } from "../../posts/JobStatus.js"
import { deletableFrom, repostableFrom, updatableFrom } from "../../posts/JobStatusSteps.js"
import { Signing } from "../../storage/Signing.js"
import { JobDispatcher } from "./JobDispatcher.js"
import { JobRepo } from "./JobRepo.js"

/**
 * The channel entity's part in what follows a publication: an update or removal sent on to the receiver (hand-over
 * makes and starts the signed `post.update` / `post.delete` deliveries: FollowUps), and a repost (a new job of the
 * same event on the same channel).
 */
export const postActions = Effect.gen(function*() {
  const jobs = yield* JobRepo
  const followUps = yield* FollowUps
  const dispatcher = yield* JobDispatcher
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

  const update = ({ changes, jobId, requestId, workspaceId }: UpdateJob) =>
    Effect.gen(function*() {
      yield* jobIn(workspaceId, jobId, updatableFrom, "updated")
      const media = changes.mediaFileId === undefined ? undefined : yield* mediaLink(workspaceId, changes.mediaFileId)
      return yield* followUps.queue(workspaceId, jobId, requestId, { event: "post.update", changes, media })
    })

  const remove = ({ jobId, requestId, workspaceId }: DeleteJob) =>
    Effect.gen(function*() {
      yield* jobIn(workspaceId, jobId, deletableFrom, "deleted")
      return yield* followUps.queue(workspaceId, jobId, requestId, { event: "post.delete" })
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
