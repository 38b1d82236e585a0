import { Effect, Fiber, Layer, Option, Queue } from "effect"
import { join } from "node:path"
import { AppConfig } from "../Config.js"
import type { EncoderSettings } from "./Ffmpeg.js"
import { renderClip, renderKeyframe } from "./Render.js"
import { Renderer } from "./Renderer.js"
import type { RendererService } from "./Renderer.js"
import { DrawFailed, isRenderError } from "./RenderError.js"
import type { RenderError } from "./RenderError.js"
import type { SceneInput } from "./Scene.js"

export interface DrawingSettings {
  /** Where normalised intros/outros and video stills are kept between renders. */
  readonly cacheDir: string
  readonly encoder?: EncoderSettings
}

const toError = (e: unknown): RenderError =>
  isRenderError(e)
    ? e
    : new DrawFailed({ stage: "draw", message: String(e), exitCode: null, signal: null, stderrTail: "" })

/** Runs a promise-returning job that honours an AbortSignal; interruption aborts it and waits until it settled. */
const abortable = <A>(run: (signal: AbortSignal) => Promise<A>): Effect.Effect<A, RenderError> =>
  Effect.async<A, RenderError>((resume) => {
    const controller = new AbortController()
    const job = run(controller.signal)
    job.then(
      (a) => resume(Effect.succeed(a)),
      (e: unknown) => resume(Effect.fail(toError(e)))
    )
    // Returned effect runs on interruption; it completes only once both child processes are gone.
    return Effect.promise(() => {
      controller.abort()
      return job.then(() => undefined, () => undefined)
    })
  })

/**
 * Bridges the engine's plain progress callback to the caller's effect: the callback only drops the newest fraction
 * into a one-slot queue, and a fiber forked from the caller's takes it from there. What is left when the job ends
 * (the final 1) is delivered before returning.
 */
const withProgress = <A, E>(
  onProgress: ((fraction: number) => Effect.Effect<void>) | undefined,
  job: (report: (fraction: number) => void) => Effect.Effect<A, E>
): Effect.Effect<A, E> => {
  if (onProgress === undefined) return job(() => undefined)
  const deliver = (fraction: number) => Effect.uninterruptible(onProgress(fraction))
  return Effect.scoped(Effect.gen(function*() {
    const latest = yield* Queue.sliding<number>(1)
    const reporter = yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(latest), deliver)))
    const result = yield* job((fraction) => Queue.unsafeOffer(latest, fraction))
    // Once the reporter is stopped (after the delivery under way), the rest cannot overtake it.
    yield* Fiber.interrupt(reporter)
    yield* Effect.flatMap(Queue.poll(latest), Option.match({ onNone: () => Effect.void, onSome: deliver }))
    return result
  }))
}

/** The drawing engine (`Render.ts`: a drawer child process piping frames to ffmpeg) as the `Renderer` port. */
const make = (settings: DrawingSettings): RendererService => {
  const { cacheDir, encoder } = settings
  const engine = encoder === undefined ? { cacheDir } : { cacheDir, encoder }
  const size = (scene: SceneInput) => ({ width: scene.width, height: scene.height, frames: scene.frames })
  return {
    clip: (scene, { onProgress, outputPath }) =>
      withProgress(
        onProgress,
        (report) => abortable((signal) => renderClip(scene, { ...engine, outputPath, signal, onProgress: report }))
      ).pipe(Effect.withSpan("Render.clip", { attributes: size(scene) })),
    keyframe: (scene, frame) =>
      abortable((signal) => renderKeyframe(scene, frame, signal, cacheDir)).pipe(Effect.withSpan("Render.keyframe"))
  }
}

export const DrawingRenderer = {
  /** Caches under `DATA_DIR/cache/render`, shared by the nodes sharing DATA_DIR. */
  layer: Layer.effect(
    Renderer,
    Effect.map(AppConfig, (config) => make({ cacheDir: join(config.dataDir, "cache", "render") }))
  ),
  make
}
