import { spawn } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { createReadStream } from "node:fs"
import { rename, stat, unlink } from "node:fs/promises"
import { exited, kill, spawnDrawer, tail } from "./Children.js"
import { defaultEncoder, encodeArgs, ffmpegPath, progressParser } from "./Ffmpeg.js"
import type { EncoderSettings } from "./Ffmpeg.js"
import { readMp4Info } from "./Mp4Info.js"
import { RenderFailed, RenderInterrupted } from "./RenderError.js"
import { durationMsOf } from "./Scene.js"
import type { SceneInput } from "./Scene.js"
import { validateScene } from "./Validate.js"

export interface RenderOptions {
  readonly outputPath: string
  readonly signal?: AbortSignal
  readonly onProgress?: (fraction: number) => void
  readonly encoder?: EncoderSettings
}

export interface RenderResult {
  readonly width: number
  readonly height: number
  readonly frames: number
  readonly fps: number
  readonly durationMs: number
  readonly byteSize: number
  readonly sha256: string
}

const sha256Of = (file: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const hash = createHash("sha256")
    createReadStream(file)
      .on("error", reject)
      .on("data", (c) => hash.update(c))
      .on("end", () => resolve(hash.digest("hex")))
  })

// A function, so TypeScript does not narrow `aborted` across awaits.
const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true

const failed = (
  stage: "draw" | "encode" | "verify",
  message: string,
  exit: { readonly code: number | null; readonly signal: string | null },
  stderr: string
) => new RenderFailed({ stage, message, exitCode: exit.code, signal: exit.signal, stderrTail: stderr })

/**
 * Draws and encodes one clip: ffmpeg and a drawer child process whose stdout is ffmpeg's stdin, so no
 * pixels pass through this process. Rejects with a RenderError; aborting kills both children first.
 */
export const renderClip = async (input: SceneInput, options: RenderOptions): Promise<RenderResult> => {
  validateScene(input)
  const { signal, onProgress } = options
  if (isAborted(signal)) throw new RenderInterrupted()
  const partial = `${options.outputPath}.${randomBytes(4).toString("hex")}.partial`
  const ffmpeg = spawn(ffmpegPath(), encodeArgs(input, partial, options.encoder ?? defaultEncoder), {
    stdio: ["pipe", "pipe", "pipe"]
  })
  const ffmpegExit = exited(ffmpeg)
  const drawer = spawnDrawer(["video"], ["pipe", ffmpeg.stdin ?? "ignore", "pipe"])
  const drawerExit = exited(drawer)
  // Our copy of the pipe must close, or ffmpeg never sees end of input when the drawer exits.
  ffmpeg.stdin?.destroy()
  const ffmpegErr = tail(ffmpeg.stderr)
  const drawerErr = tail(drawer.stderr)
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
  const abort = () => {
    kill(drawer)
    kill(ffmpeg)
  }
  signal?.addEventListener("abort", abort, { once: true })
  drawer.stdin?.on("error", () => undefined)
  drawer.stdin?.end(JSON.stringify(input))
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
    const [{ size }, sha256] = await Promise.all([stat(partial), sha256Of(partial)])
    await rename(partial, options.outputPath)
    onProgress?.(1)
    const { width, height, frames, fps } = input
    return { width, height, frames, fps, durationMs: durationMsOf(input), byteSize: size, sha256 }
  } catch (e) {
    await unlink(partial).catch(() => undefined)
    throw e
  }
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** Draws one frame (0-based, progress bar included) as a PNG, in a drawer child process. */
export const renderKeyframe = async (input: SceneInput, frame: number, signal?: AbortSignal): Promise<Buffer> => {
  validateScene(input)
  if (isAborted(signal)) throw new RenderInterrupted()
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
