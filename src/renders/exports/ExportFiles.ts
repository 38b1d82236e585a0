import { Clock, Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "../../Config.js"
import { AssetUnavailable, Conflict, detailAt, Forbidden, NotFound, RenderTimeout } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import { BlobStorage } from "../../storage/BlobStorage.js"
import { requireIntact } from "../../storage/Integrity.js"
import { Signing } from "../../storage/Signing.js"
import { buildZip } from "../../storage/Zip.js"
import { checkLinkKey, issueLinkKey } from "./ExportLinkKeys.js"
import type { TrackedExport } from "./ExportRecord.js"
import { ExportRepo } from "./ExportRepo.js"
import { ExportViews, statusOf } from "./ExportViews.js"
import { type KeptEntry, videoFileName, type ZipBody, zipSizeProblem } from "./KeptExport.js"

/** An unkept video's file goes two hours after it finished (the export entity's `Expire`). */
const UNKEPT_FILE_MS = 2 * 3600 * 1000

/** The export entity has recorded success and its clip. */
const succeeded = (row: TrackedExport) => row.status === "succeeded" && row.clipId !== null

/** Kept and its file still there (a kept clip removed for room is no longer a kept export). */
const isKept = (row: TrackedExport) => row.kept && row.clipStored === true

const gone = (row: TrackedExport) =>
  new NotFound({
    message: `The video of export ${row.id} is gone: ` +
      (row.kept ? "it was removed to make room." : "a video not kept is deleted two hours after it finished.")
  })

/** A video to answer with; `ranges`: byte ranges are honoured (kept videos only). */
export interface VideoFile {
  readonly blobKey: string
  /** As recorded when the clip was stored; the bytes are checked against it before they are sent. */
  readonly sha256: string
  readonly filename: string
  readonly etag: string
  readonly ranges: boolean
}

/** The render can have ended a moment before the export entity recorded it: that is still finishing. */
const notFinished = (row: TrackedExport) => {
  const status = statusOf(row) === "succeeded" ? "finishing" : statusOf(row)
  return `export ${row.id} is ${status}, not finished with a video`
}

/** A render that ran out of time says so: 504, which the spec has clients retry once by starting again. */
const timedOut = (row: TrackedExport) =>
  new RenderTimeout({
    message:
      `Export ${row.id} has no video: its render took longer than the time limit (${row.error ?? "timed out"}). ` +
      "Start the export again."
  })

const make = Effect.gen(function*() {
  const repo = yield* ExportRepo
  const views = yield* ExportViews
  const storage = yield* BlobStorage
  const signing = yield* Signing
  const { publicBaseUrl } = yield* AppConfig

  const fileOf = (row: TrackedExport) =>
    row.blobKey !== null && row.sha256 !== null && row.clipStored === true
      ? Effect.succeed({ blobKey: row.blobKey, sha256: row.sha256 })
      : Effect.fail(gone(row))

  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  const videoFile = (row: TrackedExport) =>
    Effect.map(fileOf(row), ({ blobKey, sha256 }): VideoFile => ({
      blobKey,
      sha256,
      filename: videoFileName(row),
      etag: row.id,
      ranges: row.kept
    }))

  /** Seeing a finished export settles it (keeps it when it fits). */
  const seen = (workspaceId: WorkspaceId, jobId: string) =>
    Effect.flatMap(views.find(workspaceId, jobId), views.settled)

  const download = Effect.fn("ExportFiles.download")(function*(workspaceId: WorkspaceId, jobId: string) {
    const row = yield* seen(workspaceId, jobId)
    if (statusOf(row) === "timed_out") return yield* timedOut(row)
    if (!succeeded(row)) return yield* new Conflict({ message: `No video to download: ${notFinished(row)}.` })
    return yield* videoFile(row)
  })

  const link = Effect.fn("ExportFiles.link")(function*(workspaceId: WorkspaceId, jobId: string) {
    // Asking counts a finished video against the allowance. The WorkspaceAllowance reservation was already committed
    // when the render finished, so what is left to do here is settling: keeping it with the workspace's clips.
    const row = yield* seen(workspaceId, jobId)
    if (statusOf(row) === "timed_out") return yield* timedOut(row)
    if (!succeeded(row)) {
      return yield* new AssetUnavailable({ message: `No link yet: ${notFinished(row)}. Ask again once it succeeded.` })
    }
    yield* fileOf(row)
    const issued = issueLinkKey(
      signing,
      row.id,
      row.kept,
      yield* now,
      row.finishedAt === null ? undefined : new Date(row.finishedAt.getTime() + UNKEPT_FILE_MS)
    )
    const url = new URL(`${publicBaseUrl}/v1/export-files/${encodeURIComponent(row.id)}`)
    url.searchParams.set("as", "video")
    url.searchParams.set("key", issued.key)
    const expiresAt = issued.expiresAt?.toISOString() ?? null
    return { url: url.toString(), expiresAt, form: "video" as const, kept: row.kept }
  })

  /** No credential: the key is the authorisation. A bad key is refused before anything about the export is said. */
  const linkedFile = Effect.fn("ExportFiles.linkedFile")(function*(jobId: string, key: string | undefined) {
    const check = key === undefined ? undefined : checkLinkKey(signing, jobId, key, yield* now)
    if (check === undefined || check._tag === "Invalid") {
      return yield* new Forbidden({ message: "This export link is wrong or has expired; ask for a new link." })
    }
    // The key names this export alone, so it is read whatever its workspace.
    const found = yield* repo.findAnyWorkspace(jobId)
    const row = Option.getOrUndefined(Option.filter(found, (r) => r.discardedAt === null))
    if (row === undefined || !succeeded(row)) return yield* new NotFound({ message: `No export ${jobId}.` })
    if (check.whileKept && !row.kept) {
      return yield* new Forbidden({ message: "This link held while the video was kept; it no longer is." })
    }
    return yield* videoFile(row)
  })

  const zip = Effect.fn("ExportFiles.zip")(function*(workspaceId: WorkspaceId, body: ZipBody) {
    const ids = [...new Set(body.jobIds)]
    const rows = yield* Effect.forEach(ids, (id) => views.find(workspaceId, id))
    const seenRows = yield* Effect.forEach(rows, views.settled, { concurrency: 4 })
    const unfinished = seenRows.flatMap((row, i) => succeeded(row) ? [] : [{ row, i }])
    if (unfinished.length > 0) {
      return yield* new Conflict({
        message: `Every export in a zip must be finished: ${unfinished.map(({ row }) => notFinished(row)).join("; ")}.`,
        details: unfinished.map(({ i, row }) => detailAt(["jobIds", body.jobIds.indexOf(ids[i]!)], notFinished(row)))
      })
    }
    const files = yield* Effect.forEach(seenRows, fileOf)
    const tooLarge = zipSizeProblem(seenRows.map((row) => row.byteSize ?? 0))
    if (tooLarge !== undefined) return yield* tooLarge
    // Checked before the archive starts: once its first bytes are out, a wrong file could only cut it short.
    const entries = seenRows.map((row, i) => ({ row, name: videoFileName(row), ...files[i]! }))
    const lost = () => Effect.fail(new NotFound({ message: "A video of these exports is gone." }))
    yield* Effect.forEach(entries, (e) => requireIntact(storage, e.blobKey, e.sha256, `export ${e.row.id}`)).pipe(
      Effect.catchTag("BlobNotFound", lost)
    )
    const archive = yield* buildZip(entries.map(({ blobKey, name }) => ({ name, blobKey }))).pipe(
      Effect.provideService(BlobStorage, storage),
      Effect.catchTag("BlobNotFound", lost)
    )
    const day = (yield* now).toISOString().slice(0, 10)
    return { archive, filename: `clipwright-exports_${day}_${seenRows.length}.zip` }
  })

  const entry = (row: TrackedExport): KeptEntry => ({
    jobId: row.id,
    templateId: row.templateId,
    templateName: row.templateName,
    version: row.version,
    ratio: row.ratio,
    locale: row.locale,
    brandId: row.brandId,
    width: row.width,
    height: row.height,
    durationMs: row.durationMs,
    byteSize: row.byteSize,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    videoUrl: `${publicBaseUrl}/v1/direct-export/video/${encodeURIComponent(row.id)}/download`
  })

  /** Kept exports newest first; finished ones not seen yet are settled first, as the queue does. */
  const videos = Effect.fn("ExportFiles.videos")(function*(workspaceId: WorkspaceId, limit: number) {
    const rows = yield* Effect.forEach(yield* repo.list(workspaceId), views.settled, { concurrency: 4 })
    const kept = rows.filter(isKept)
    return { exports: kept.slice(0, limit).map(entry), kept: kept.length }
  })

  const video = Effect.fn("ExportFiles.video")(function*(workspaceId: WorkspaceId, jobId: string) {
    const row = yield* seen(workspaceId, jobId)
    if (!isKept(row)) return yield* new NotFound({ message: `Export ${jobId} is not kept.` })
    return { export: { ...entry(row), variant: row.variant, title: row.title, data: row.data } }
  })

  /** What the export was drawn from, to start another like it; makes nothing. */
  const reuse = Effect.fn("ExportFiles.reuse")(function*(workspaceId: WorkspaceId, jobId: string) {
    const row = yield* views.find(workspaceId, jobId)
    return {
      reuse: {
        kind: "export" as const,
        templateId: row.templateId,
        templateName: row.templateName,
        variant: row.variant,
        version: row.version,
        pinnedVersion: row.version,
        brandId: row.brandId,
        ratio: row.ratio,
        locale: row.locale,
        data: row.data,
        title: row.title,
        queueId: null
      }
    }
  })

  return { download, link, linkedFile, zip, videos, video, reuse }
})

export class ExportFiles extends Context.Tag("clipwright/renders/exports/ExportFiles")<
  ExportFiles,
  Effect.Effect.Success<typeof make>
>() {
  /** Brings `Signing` (the URL secret in PostgreSQL; memoised with its other uses). Needs `ExportViews`. */
  static readonly layer = Layer.effect(ExportFiles, make).pipe(Layer.provide(Signing.layer))
}
