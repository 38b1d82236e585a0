import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { rename, stat, unlink } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { announcement, exited, kill, spawnDrawer, tail } from "./Children.js"
import { defaultEncoder, encodeArgs, ffmpegPath, progressParser } from "./Ffmpeg.js"
import type { AudioSource, Composition, EncoderSettings } from "./Ffmpeg.js"
import { readMp4Info } from "./Mp4Info.js"
import type { RenderResult } from "./Renderer.js"
import { DrawFailed, RenderInterrupted } from "./RenderError.js"
import { isAborted, sha256Of } from "./Run.js"
import { durationMsOf } from "./Scene.js"
import type { SceneInput } from "./Scene.js"
import { joinSegments, normalised } from "./Splice.js"
import type { JoinMethod } from "./Splice.js"
import { withStills } from "./Stills.js"
import { validateScene } from "./Validate.js"

export interface RenderOptions {
  readonly outputPath: string
  readonly signal?: AbortSignal
  readonly onProgress?: (fraction: number) => void
  readonly encoder?: EncoderSettings
  /** Where normalised intros/outros and video stills are kept between renders (default: under the OS temp dir). */
  readonly cacheDir?: string
}

export const defaultCacheDir = (): string => join(tmpdir(), "clipwright-render-cache")

const failed = (
  stage: "draw" | "encode" | "verify",
  message: string,
  exit: { readonly code: number | null; readonly signal: string | null },
  stderr: string
) => new DrawFailed({ stage, message, exitCode: exit.code, signal: exit.signal, stderrTail: stderr })

/**
 * Draws and encodes one clip: ffmpeg and a drawer child process whose stdout is ffmpeg's stdin, so no
 * pixels pass through this process. Rejects with a RenderError; aborting kills both children first. The service
 * calls it through the `Renderer` port (`DrawingRenderer.ts`).
 */
export const renderClip = async (scene: SceneInput, options: RenderOptions): Promise<RenderResult> => {
  validateScene(scene)
  const { signal, onProgress } = options
  if (isAborted(signal)) throw new RenderInterrupted()
  const cacheDir = options.cacheDir ?? defaultCacheDir()
  const encoder = options.encoder ?? defaultEncoder
  const input = await withStills(scene, cacheDir, signal, true)
  const background = input.brand?.background
  const videoBackground = background?.kind === "video" ? { path: background.path } : undefined
  const { intro, outro, soundPath } = input.brand ?? {}
  // Intros and outros are normalised (or found in the cache) while the clip is drawn.
  const target = { width: input.width, height: input.height, fps: input.fps }
  const segments = Promise.all([intro, outro].map((c) => c && normalised(c, target, encoder, cacheDir, signal)))
  segments.catch(() => undefined)
  // Every segment of a joined clip needs an audio track: silence where the brand has no sound.
  const audio: AudioSource | undefined = soundPath !== undefined
    ? { kind: "sound", path: soundPath }
    : intro !== undefined || outro !== undefined
    ? { kind: "silence" }
    : undefined
  const partial = `${options.outputPath}.${randomBytes(4).toString("hex")}.partial`
  const drawer = spawnDrawer(["video"], ["pipe", "pipe", "pipe", "pipe"])
  const drawerExit = exited(drawer)
  const drawerErr = tail(drawer.stderr)
  let encoding: ChildProcess | undefined
  const abort = () => {
    kill(drawer)
    if (encoding !== undefined) kill(encoding)
  }
  signal?.addEventListener("abort", abort, { once: true })
  drawer.stdin?.on("error", () => undefined)
  drawer.stdin?.end(JSON.stringify(input))
  const plan = await announcement(drawer)
  if (plan === undefined) {
    kill(drawer)
    const d = await drawerExit
    signal?.removeEventListener("abort", abort)
    if (isAborted(signal)) throw new RenderInterrupted()
    throw failed("draw", d.error?.message ?? "drawer failed before drawing", d, drawerErr())
  }
  const composition: Composition = videoBackground !== undefined
    ? { kind: "background", background: videoBackground }
    : plan.tail !== null
    ? { kind: "still-tail", tail: plan.tail }
    : { kind: "frames" }
  // The drawer's stdout becomes ffmpeg's stdin; it writes nothing before `go`, so this process never reads a frame.
  const ffmpeg = spawn(ffmpegPath(), encodeArgs(input, partial, encoder, audio, composition), {
    stdio: [drawer.stdout ?? "ignore", "pipe", "pipe"]
  })
  encoding = ffmpeg
  const ffmpegExit = exited(ffmpeg)
  // Our copy of the pipe must close, or ffmpeg never sees end of input when the drawer exits.
  drawer.stdout?.destroy()
  plan.go()
  const ffmpegErr = tail(ffmpeg.stderr)
  let lastFraction = -1
  ffmpeg.stdout?.on(
    "data",
    progressParser((frame) => {
      const fraction = Math.min(0.99, frame / input.frames)
      if (fraction > lastFraction) {
        lastFraction = fraction
        onProgress?.(fraction)
      }
    })
  )
  // Whichever child fails first takes the other down; remember who was killed, to blame the right one.
  let killedDrawer = false
  let killedFfmpeg = false
  void drawerExit.then((e) => e.code !== 0 && !killedDrawer && ((killedFfmpeg = true), kill(ffmpeg)))
  void ffmpegExit.then((e) => e.code !== 0 && !killedFfmpeg && ((killedDrawer = true), kill(drawer)))
  const [d, f] = await Promise.all([drawerExit, ffmpegExit])
  signal?.removeEventListener("abort", abort)
  const both = () => [ffmpegErr(), drawerErr()].filter((s) => s !== "").join("\n--- drawer ---\n")
  try {
    if (isAborted(signal)) throw new RenderInterrupted()
    // Exit code 3: the drawer lost its output because ffmpeg went away first.
    if (d.code !== 0 && !killedDrawer && d.code !== 3) {
      throw failed("draw", d.error?.message ?? "drawer failed", d, both())
    }
    if (f.code !== 0 && !killedFfmpeg) throw failed("encode", f.error?.message ?? "ffmpeg failed", f, both())
    if (d.code !== 0) throw failed("draw", d.error?.message ?? "drawer failed", d, both())
    if (f.code !== 0) throw failed("encode", f.error?.message ?? "ffmpeg failed", f, both())
    const info = await readMp4Info(partial).catch((e: unknown) => {
      throw failed("verify", `unreadable mp4: ${String(e)}`, f, ffmpegErr())
    })
    const v = info.video
    if (v === undefined || v.samples !== input.frames || v.width !== input.width || v.height !== input.height) {
      const got = v === undefined ? "no video track" : `${v.width}x${v.height}, ${v.samples} frames`
      throw failed("verify", `expected ${input.width}x${input.height}, ${input.frames} frames; got ${got}`, f, both())
    }
    const [first, last] = await segments
    let frames = input.frames
    let joined: JoinMethod | undefined
    if (first !== undefined || last !== undefined) {
      const parts = [first, partial, last].filter((p): p is string => p !== undefined)
      joined = await joinSegments(parts, wholeOf(partial), target, encoder, signal)
      const whole = await readMp4Info(wholeOf(partial))
      const expected = (await Promise.all(parts.map(readMp4Info))).reduce((n, i) => n + (i.video?.samples ?? 0), 0)
      if (whole.video?.samples !== expected) {
        throw failed("verify", `joined clip has ${whole.video?.samples} frames, expected ${expected}`, f, "")
      }
      frames = expected
      await rename(wholeOf(partial), partial)
    }
    const [{ size }, sha256] = await Promise.all([stat(partial), sha256Of(partial)])
    await rename(partial, options.outputPath)
    onProgress?.(1)
    const { width, height, fps } = input
    return {
      width,
      height,
      frames,
      fps,
      durationMs: durationMsOf({ frames, fps }),
      byteSize: size,
      sha256,
      ...(joined === undefined ? {} : { joined })
    }
  } catch (e) {
    await Promise.all([unlink(partial), unlink(wholeOf(partial))].map((p) => p.catch(() => undefined)))
    throw e
  }
}

const wholeOf = (partial: string) => `${partial}.whole.mp4`

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** Draws one frame (0-based, progress bar included) as a PNG, in a drawer child process. */
export const renderKeyframe = async (
  scene: SceneInput,
  frame: number,
  signal?: AbortSignal,
  cacheDir: string | undefined = undefined
): Promise<Buffer> => {
  validateScene(scene)
  if (isAborted(signal)) throw new RenderInterrupted()
  const input = await withStills(scene, cacheDir ?? defaultCacheDir(), signal)
  const drawer = spawnDrawer(["keyframe", String(Math.max(0, Math.floor(frame)))], ["pipe", "pipe", "pipe"])
  const exit = exited(drawer)
  const err = tail(drawer.stderr)
  const chunks: Array<Buffer> = []
  drawer.stdout?.on("data", (c: Buffer) => chunks.push(c))
  const abort = () => kill(drawer)
  signal?.addEventListener("abort", abort, { once: true })
  drawer.stdin?.on("error", () => undefined)
  drawer.stdin?.end(JSON.stringify(input))
  const e = await exit
  signal?.removeEventListener("abort", abort)
  if (isAborted(signal)) throw new RenderInterrupted()
  const png = Buffer.concat(chunks)
  if (e.code !== 0 || !png.subarray(0, 8).equals(pngSignature)) {
    throw failed("draw", e.error?.message ?? "keyframe drawer failed", e, err())
  }
  return png
}
