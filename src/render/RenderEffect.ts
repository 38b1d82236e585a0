import { Effect } from "effect"
import { renderClip, renderKeyframe } from "./Render.js"
import type { RenderOptions, RenderResult } from "./Render.js"
import { isRenderError, RenderFailed } from "./RenderError.js"
import type { RenderError } from "./RenderError.js"
import type { SceneInput } from "./Scene.js"

const toError = (e: unknown): RenderError =>
  isRenderError(e)
    ? e
    : new RenderFailed({ stage: "draw", message: String(e), exitCode: null, signal: null, stderrTail: "" })

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

/** renderClip as an interruptible Effect: interrupting the fiber kills the drawer and ffmpeg. */
export const renderClipEffect = (
  input: SceneInput,
  options: Omit<RenderOptions, "signal">
): Effect.Effect<RenderResult, RenderError> =>
  abortable((signal) => renderClip(input, { ...options, signal })).pipe(
    Effect.withSpan("Render.clip", { attributes: { width: input.width, height: input.height, frames: input.frames } })
  )

export const renderKeyframeEffect = (
  input: SceneInput,
  frame: number,
  cacheDir?: string
): Effect.Effect<Buffer, RenderError> =>
  abortable((signal) => renderKeyframe(input, frame, signal, cacheDir)).pipe(Effect.withSpan("Render.keyframe"))
