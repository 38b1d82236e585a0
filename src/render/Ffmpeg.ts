import { accessSync, constants } from "node:fs"
import { createRequire } from "node:module"
import { delimiter, join } from "node:path"

const require = createRequire(import.meta.url)

export interface EncoderSettings {
  readonly codec: string
  readonly preset: string
  readonly crf: number
}

export const defaultEncoder: EncoderSettings = { codec: "libx264", preset: "veryfast", crf: 23 }

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

let resolved: string | undefined

/** FFMPEG_PATH, else an `ffmpeg` on PATH, else the static build that `npm ci` brings. */
export const ffmpegPath = (): string => {
  const env = process.env["FFMPEG_PATH"]
  if (env !== undefined && env !== "") return env
  if (resolved !== undefined) return resolved
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    const candidate = join(dir, "ffmpeg")
    if (dir !== "" && executable(candidate)) return (resolved = candidate)
  }
  const installer = require("@ffmpeg-installer/ffmpeg") as { readonly path: string }
  return (resolved = installer.path)
}

export interface RawInput {
  readonly width: number
  readonly height: number
  readonly fps: number
  readonly frames: number
}

/** Arguments for raw yuv420p frames on stdin → H.264 MP4, progress as key=value lines on stdout. */
export const encodeArgs = (input: RawInput, output: string, enc: EncoderSettings = defaultEncoder): Array<string> => [
  "-hide_banner",
  "-nostdin",
  "-loglevel", "error",
  "-nostats",
  "-progress", "pipe:1",
  "-f", "rawvideo",
  "-pix_fmt", "yuv420p",
  "-s", `${input.width}x${input.height}`,
  "-framerate", String(input.fps),
  "-color_range", "tv",
  "-colorspace", "bt709",
  "-i", "pipe:0",
  "-frames:v", String(input.frames),
  "-an",
  "-vf", "setsar=1",
  "-c:v", enc.codec,
  "-preset", enc.preset,
  "-crf", String(enc.crf),
  "-pix_fmt", "yuv420p",
  "-color_range", "tv",
  "-colorspace", "bt709",
  "-color_primaries", "bt709",
  "-color_trc", "bt709",
  "-movflags", "+faststart",
  "-f", "mp4",
  "-y", output
]

/** Parses `-progress` output incrementally, calling back with the last encoded frame count. */
export const progressParser = (onFrame: (frame: number) => void) => {
  let pending = ""
  return (chunk: Buffer | string): void => {
    pending += chunk.toString()
    const lines = pending.split("\n")
    pending = lines.pop() ?? ""
    for (const line of lines) {
      if (line.startsWith("frame=")) {
        const n = Number(line.slice(6).trim())
        if (Number.isFinite(n)) onFrame(n)
      }
    }
  }
}
