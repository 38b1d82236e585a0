import { Context, Effect, Layer, Option } from "effect"
import { detailAt, NotFound, SchemaValidation } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { isoIn, isTimeZone } from "../../domain/TimeZones.js"
import { BlobStorage } from "../../storage/BlobStorage.js"
import { buildZip, safeName } from "../../storage/Zip.js"
import { type PackageRow, PostPackageQuery } from "./PostPackageQuery.js"

/** Why a package carries no video: the name of the text file it carries instead. */
const missingVideo = (row: PackageRow): string => {
  if (row.status === "RENDER_FAILED") return `render failed - ${row.error ?? "no reason given"}`
  if (row.status === "CANCELLED") return "cancelled before its video was kept"
  if (row.renderState !== null && row.renderState !== "COMPLETED" && row.renderState !== "PARTIAL") {
    return "still rendering"
  }
  if (row.renderState === null) return "not rendered yet"
  return "video removed to make room"
}

/**
 * A post's package (`GET /v1/jobs/{id}/download`, `GET /v1/posts/{id}/package`): a ZIP of its video and a JSON of the
 * post with its times in `tz`; without a video, a text file whose name is the reason.
 */
const make = Effect.gen(function*() {
  const query = yield* PostPackageQuery
  const storage = yield* BlobStorage

  const zipOf = (row: PackageRow, tz: string) =>
    Effect.gen(function*() {
      const at = (date: Date | null) => (date === null ? null : isoIn(date, tz))
      const post = {
        id: row.postId,
        postGroupId: row.jobId,
        state: row.status,
        origin: row.origin,
        channelName: row.channelName,
        platform: row.platform,
        surface: row.surface,
        locale: row.locale,
        ratio: row.ratio,
        title: row.title,
        caption: row.caption,
        hashtags: row.hashtags ?? [],
        createdAt: at(row.createdAt),
        scheduledFor: at(row.scheduledFor),
        publishedAt: at(row.publishedAt),
        permalink: row.permalink,
        timeZone: tz
      }
      const base = safeName(`${row.channelName}_${row.ratio}_${row.locale}_${row.jobId}`)
      const video = row.blobKey === null
        ? { name: `${safeName(missingVideo(row))}.txt`, buffer: new TextEncoder().encode(missingVideo(row) + "\n") }
        : { name: `${base}.mp4`, blobKey: row.blobKey }
      const archive = yield* buildZip([video, {
        name: `${base}.json`,
        buffer: new TextEncoder().encode(JSON.stringify(post, null, 2))
      }]).pipe(
        Effect.provideService(BlobStorage, storage),
        Effect.catchTag("BlobNotFound", () =>
          Effect.fail(new NotFound({ message: `The video of job ${row.jobId} is gone.` })))
      )
      return { archive, filename: `${base}.zip` }
    })

  const checkedZone = (tz: string | undefined) =>
    tz === undefined || isTimeZone(tz)
      ? Effect.succeed(tz ?? "UTC")
      : Effect.fail(
        new SchemaValidation({
          message: `${tz} is not a time zone.`,
          details: [detailAt(["tz"], "an IANA time zone, such as Europe/Berlin")]
        })
      )

  const ofJob = Effect.fn("PostPackages.ofJob")(
    function*(workspaceId: WorkspaceId, id: string, tz: string | undefined) {
      const zone = yield* checkedZone(tz)
      const row = yield* query.byJob(workspaceId, id)
      if (Option.isNone(row)) return yield* new NotFound({ message: `No job ${id}.` })
      return yield* zipOf(row.value, zone)
    }
  )

  const ofPost = Effect.fn("PostPackages.ofPost")(
    function*(workspaceId: WorkspaceId, id: string, tz: string | undefined) {
      const zone = yield* checkedZone(tz)
      const row = yield* query.byPost(workspaceId, id)
      if (Option.isNone(row)) return yield* new NotFound({ message: `No post ${id}.` })
      return yield* zipOf(row.value, zone)
    }
  )

  return { ofJob, ofPost }
})

export class PostPackages
  extends Context.Tag("clipwright/publishing/packages/PostPackages")<PostPackages, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(PostPackages, make).pipe(Layer.provide(PostPackageQuery.layer))
}
