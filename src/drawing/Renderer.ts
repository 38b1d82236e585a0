import { Context } from "effect"
import type { Effect } from "effect"
import type { RenderError } from "./RenderError.js"
import type { SceneInput } from "./Scene.js"
import type { JoinMethod } from "./Splice.js"

/** What a finished clip is: the file at `outputPath`, as written and checked. */
export interface RenderResult {
  readonly width: number
  readonly height: number
  readonly frames: number
  readonly fps: number
  readonly durationMs: number
  readonly byteSize: number
  readonly sha256: string
  /** How an intro/outro was joined: stream copy, or one re-encoding pass when the parameter sets differed. */
  readonly joined?: JoinMethod
}

export interface ClipOptions {
  /** Where the MP4 goes: it appears there whole, renamed into place, or not at all. */
  readonly outputPath: string
  /**
   * Told the share of the clip done, growing towards 1 (given once the file is in place, before `clip` succeeds).
   * Runs on a fiber of the caller's, one call at a time and uninterruptibly: a slow callback skips to the newest
   * share, so it should only record it.
   */
  readonly onProgress?: (fraction: number) => Effect.Effect<void>
}

/**
 * The port to the drawing engine: scenes in, MP4 clips and PNG stills out. A scene that cannot be drawn fails before
 * any work starts (`InvalidScene`, `LocaleNotSupported`); a failure of the work itself is a `DrawFailed`. Interrupting
 * either effect stops the work and completes only once every process it started is gone.
 */
export interface RendererService {
  /** Draws and encodes one clip, with the brand's intro, outro and sound when the scene has them. */
  readonly clip: (scene: SceneInput, options: ClipOptions) => Effect.Effect<RenderResult, RenderError>
  /** One frame of the clip (0-based, progress bar included) as PNG bytes. */
  readonly keyframe: (scene: SceneInput, frame: number) => Effect.Effect<Buffer, RenderError>
}

export class Renderer extends Context.Tag("clipwright/drawing/Renderer")<Renderer, RendererService>() {}
