import { Context, Effect, Either, Layer, Ref, Schedule } from "effect"
import { BrandLooks } from "../../brands/BrandLooks.js"
import { newUlid } from "../../domain/Ulid.js"
import { Renderer } from "../../drawing/Renderer.js"
import type { RenderError } from "../../drawing/RenderError.js"
import { BlobStorage } from "../../storage/BlobStorage.js"
import { waitForStore } from "../../storage/StoreWait.js"
import type { Content } from "../../templates/format/Template.js"
import { resolveBuild } from "../../templates/TemplateRegistry.js"
import type { RenderJobRecord } from "../RenderJobRecord.js"
import { RenderRepo } from "../RenderRepo.js"
import { describeLimit, renderTimeLimit } from "../RenderTimeLimit.js"
import { sceneFor, sizeOf } from "../Scenes.js"

export interface Outcome {
  readonly state: "COMPLETED" | "PARTIAL" | "FAILED" | "TIMED_OUT"
  readonly error: string | null
}

type Failure = { readonly kind: "failed" | "timed_out" | "no_room"; readonly message: string }

/** A full DATA_DIR (or temp) disk: the drawer or ffmpeg could not write. Not the render's fault, and it passes. */
const NO_ROOM = /No space left on device|ENOSPC/
const noRoom = (e: RenderError) => e._tag === "DrawFailed" && (NO_ROOM.test(e.message) || NO_ROOM.test(e.stderrTail))

/** A render meeting a full disk waits for room this often and this many times (two minutes) before it fails. */
const ROOM_WAIT = "5 seconds"
const ROOM_TRIES = 24

const describe = (e: RenderError): string =>
  e._tag === "DrawFailed" ? `${e.stage}: ${e.message}` : e._tag === "InvalidScene" ? e.message : e._tag

const failureOf = (e: RenderError): Failure =>
  noRoom(e)
    ? { kind: "no_room", message: `no room to write the video: the disk of DATA_DIR is full (${describe(e)})` }
    : { kind: "failed", message: describe(e) }

/**
 * Draws every output of a render job in this node's process tree: ratio × locale, one retry after a failure or a
 * timeout (the spec's one retry on 502/504), progress written as it goes, finished files moved into the blob store.
 */
const make = Effect.gen(function*() {
  const repo = yield* RenderRepo
  const blobs = yield* BlobStorage
  const looks = yield* BrandLooks
  const renderer = yield* Renderer
  const timeLimit = yield* renderTimeLimit

  const drawOne = (job: RenderJobRecord, ratio: string, locale: string) =>
    Effect.scoped(Effect.gen(function*() {
      const resolved = resolveBuild(job.templateId, { variant: job.templateVariant, version: job.templateVersion })
      if (Either.isLeft(resolved)) {
        return yield* Effect.fail<Failure>({ kind: "failed", message: "template build is gone" })
      }
      const build = resolved.right.build
      // The brand is looked up by the id the package stores, now, at draw time (see BrandLooks).
      const output = { ...sizeOf(ratio), ratio, locale }
      const extras = yield* looks.extrasFor(job.workspaceId, job.package.brand?.id ?? null, job.package.content, output)
        .pipe(waitForStore())
      const scene = sceneFor(build, job.package.content as Content, ratio, locale, extras)
      const progress = yield* Ref.make(0)
      const temp = yield* blobs.tempPath(".mp4")
      const flush = Effect.flatMap(Ref.get(progress), (p) =>
        repo.setOutput(job.workspaceId, job.id, ratio, locale, { state: "rendering", progress: p }).pipe(
          Effect.zipRight(repo.refreshProgress(job.workspaceId, job.id))
        ))
      yield* flush.pipe(Effect.repeat(Schedule.spaced("1 second")), Effect.delay("1 second"), Effect.forkScoped)
      const limit = timeLimit(scene.frames, scene.fps)
      const result = yield* renderer.clip(scene, {
        outputPath: temp,
        onProgress: (fraction) =>
          Ref.set(progress, fraction)
      }).pipe(
        Effect.timeoutFail({
          duration: limit,
          onTimeout: (): Failure => ({
            kind: "timed_out",
            message: `the renderer took longer than its time limit of ${describeLimit(limit)}`
          })
        }),
        Effect.mapError((e): Failure =>
          "kind" in e ? e : failureOf(e)
        )
      )
      // Drawn twice at once (its node frozen past its shard lock), the render may have ended meanwhile: nothing stored.
      if (!(yield* repo.setState(job.workspaceId, job.id, "DOWNLOADING"))) return
      const clipId = newUlid()
      // A store down for a moment is waited out: the drawn file stays in `temp` until an upload completes.
      const stored = yield* blobs.putFile(`clips/${job.workspaceId}/${clipId}.mp4`, temp).pipe(waitForStore())
      yield* repo.insertClip(job.workspaceId, {
        id: clipId,
        renderJobId: job.id,
        ratio,
        locale,
        width: result.width,
        height: result.height,
        durationMs: result.durationMs,
        byteSize: stored.byteSize,
        sha256: stored.sha256,
        blobKey: stored.key
      })
      yield* repo.setOutput(job.workspaceId, job.id, ratio, locale, { state: "succeeded", progress: 1, clipId })
      yield* repo.refreshProgress(job.workspaceId, job.id)
    }))

  /**
   * The spec's one retry after a failure or a timeout; a full disk is waited out instead (every 5 s, for two minutes),
   * since drawing again at once would only fail again and fail the jobs for what an operator fixes in a minute.
   */
  const drawWithRetries = (
    job: RenderJobRecord,
    ratio: string,
    locale: string,
    left: { readonly retries: number; readonly roomWaits: number }
  ): Effect.Effect<void, Failure> =>
    Effect.catchAll(drawOne(job, ratio, locale), (failure) => {
      if (failure.kind === "no_room" && left.roomWaits > 0) {
        return Effect.logWarning("Render waits for room: the disk of DATA_DIR is full").pipe(
          Effect.annotateLogs({ renderJobId: job.id, ratio, locale, error: failure.message }),
          Effect.zipRight(Effect.sleep(ROOM_WAIT)),
          Effect.zipRight(drawWithRetries(job, ratio, locale, { ...left, roomWaits: left.roomWaits - 1 }))
        )
      }
      return left.retries > 0 && failure.kind !== "no_room"
        ? drawWithRetries(job, ratio, locale, { ...left, retries: left.retries - 1 })
        : Effect.fail(failure)
    })

  const drawAll = Effect.fn("RenderOutputs.drawAll")(function*(job: RenderJobRecord) {
    yield* repo.setState(job.workspaceId, job.id, "RENDERING")
    const failures: Array<Failure> = []
    for (const { locale, ratio } of job.package.options.outputs) {
      const outcome = yield* Effect.either(drawWithRetries(job, ratio, locale, { retries: 1, roomWaits: ROOM_TRIES }))
      if (Either.isLeft(outcome)) {
        failures.push(outcome.left)
        const { kind, message } = outcome.left
        const state = kind === "timed_out" ? "timed_out" : "failed"
        yield* repo.setOutput(job.workspaceId, job.id, ratio, locale, { state, progress: 0, error: message })
      }
    }
    yield* repo.setState(job.workspaceId, job.id, "STORED")
    const total = job.package.options.outputs.length
    const error = failures.map((f) => f.message).join("; ") || null
    if (failures.length === 0) return { state: "COMPLETED", error } satisfies Outcome
    if (failures.length < total) return { state: "PARTIAL", error } satisfies Outcome
    return { state: failures.every((f) => f.kind === "timed_out") ? "TIMED_OUT" : "FAILED", error } satisfies Outcome
  })

  return { drawAll }
})

export class RenderOutputs extends Context.Tag("clipwright/renders/runner/RenderOutputs")<
  RenderOutputs,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(RenderOutputs, make)
}
