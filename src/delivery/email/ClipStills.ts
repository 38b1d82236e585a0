import { SqlClient, SqlSchema } from "@effect/sql"
import { Cause, Context, Effect, Layer, Option, Schema } from "effect"
import * as fsp from "node:fs/promises"
import { WorkspaceId } from "../../domain/Principal.js"
import { runFfmpeg } from "../../drawing/Run.js"
import { BlobStorage } from "../../storage/BlobStorage.js"
import { waitForStore } from "../../storage/StoreWait.js"

/** A picture of a clip for an email's preview. */
export interface Still {
  readonly bytes: Uint8Array
  readonly mimeType: "image/jpeg"
}

const STILL_WIDTH = 480
/** Past the first second most clips have drawn their headline; the very first frame is often still blank. */
const STILL_AT_MS = 1000
const FFMPEG_WITHIN = "30 seconds"

const ClipFile = Schema.Struct({ blobKey: Schema.String, stored: Schema.Boolean, durationMs: Schema.Number })

const stillArgs = (video: string, atSeconds: number, out: string): Array<string> => [
  "-ss",
  atSeconds.toFixed(3),
  "-i",
  video,
  "-map",
  "0:v:0",
  "-frames:v",
  "1",
  "-vf",
  `scale=w='min(${STILL_WIDTH},iw)':h=-2`,
  "-q:v",
  "4",
  "-f",
  "image2",
  "-c:v",
  "mjpeg",
  "-y",
  out
]

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const blobs = yield* BlobStorage

  // The clips table belongs to the renders area; this reads only where a clip's file is, in the caller's workspace.
  const clipFile = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: WorkspaceId, clipId: Schema.String }),
    Result: ClipFile,
    execute: ({ clipId, workspaceId }) =>
      sql`SELECT blob_key, stored, duration_ms FROM clips WHERE id = ${clipId} AND workspace_id = ${workspaceId}`
  })

  const grab = (video: string, atSeconds: number) =>
    Effect.gen(function*() {
      const out = yield* blobs.tempPath(".jpg")
      yield* Effect.tryPromise((signal) => runFfmpeg(stillArgs(video, atSeconds, out), signal))
      const bytes = yield* Effect.promise(() => fsp.readFile(out).catch(() => Buffer.alloc(0)))
      return bytes.length > 0 ? Option.some(new Uint8Array(bytes)) : Option.none()
    }).pipe(Effect.scoped)

  const take = (workspaceId: WorkspaceId, clipId: string) =>
    Effect.gen(function*() {
      const found = yield* clipFile({ workspaceId, clipId })
      if (Option.isNone(found) || !found.value.stored) return Option.none<Still>()
      // A copy for ffmpeg when clips live in an object store; a store down for a moment is waited out.
      const video = yield* blobs.readableFile(found.value.blobKey).pipe(waitForStore(FFMPEG_WITHIN))
      const at = found.value.durationMs > STILL_AT_MS ? STILL_AT_MS / 1000 : 0
      // A seek past the last frame writes nothing (the row's duration is rounded): the first frame then.
      const bytes = at === 0 ? yield* grab(video, 0) : yield* grab(video, at).pipe(
        Effect.catchAll(() => Effect.succeedNone),
        Effect.flatMap((shot) => (Option.isNone(shot) ? grab(video, 0) : Effect.succeed(shot)))
      )
      if (Option.isNone(bytes)) return yield* Effect.fail(new Error("ffmpeg wrote no picture"))
      return Option.some<Still>({ bytes: bytes.value, mimeType: "image/jpeg" })
    }).pipe(Effect.scoped)

  const stillOf = Effect.fn("ClipStills.stillOf")(function*(workspaceId: WorkspaceId, clipId: string) {
    yield* Effect.annotateCurrentSpan("clip.id", clipId)
    return yield* take(workspaceId, clipId).pipe(
      Effect.timeoutFail({ duration: FFMPEG_WITHIN, onTimeout: () => new Error(`no still within ${FFMPEG_WITHIN}`) }),
      // An email without its preview beats no email: every failure becomes "no still", with a warning.
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.interrupt
          : Effect.logWarning("clip still: none taken", cause).pipe(
            Effect.annotateLogs({ clipId, workspaceId }),
            Effect.as(Option.none<Still>())
          )
      )
    )
  })

  return { stillOf } as const
})

/** Preview pictures of rendered clips for hand-over emails. */
export class ClipStills extends Context.Tag("clipwright/delivery/email/ClipStills")<ClipStills, {
  /** A JPEG about 480 px wide, about one second into the clip; none when the clip is gone or unreadable. */
  readonly stillOf: (workspaceId: WorkspaceId, clipId: string) => Effect.Effect<Option.Option<Still>>
}>() {
  static readonly layer = Layer.effect(ClipStills, make)
}
