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

/** Audio of an encoded clip: a sound file (looped or cut to the clip) or silence, both AAC 48 kHz stereo. */
export type AudioSource = { readonly kind: "sound"; readonly path: string } | { readonly kind: "silence" }

/**
 * The mp4 video timescale of every segment (ffmpeg's own choice for integer rates: the rate doubled up to 10000 or
 * more), fixed so that clips joined by stream copy agree.
 */
export const timescaleOf = (fps: number): number => {
  if (!Number.isInteger(fps)) return 90000
  let t = fps
  while (t < 10000) t *= 2
  return t
}

/** x264 settings and colour tags shared by every segment, so their parameter sets come out byte for byte equal. */
export const videoCodecArgs = (fps: number, enc: EncoderSettings): Array<string> => [
  "-c:v", enc.codec,
  "-preset", enc.preset,
  "-crf", String(enc.crf),
  "-pix_fmt", "yuv420p",
  "-color_range", "tv",
  "-colorspace", "bt709",
  "-color_primaries", "bt709",
  "-color_trc", "bt709",
  "-video_track_timescale", String(timescaleOf(fps))
]

export const audioCodecArgs: ReadonlyArray<string> = ["-c:a", "aac", "-b:a", "128k", "-ar", "48000", "-ac", "2"]

export const silenceInput: ReadonlyArray<string> = ["-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo"]

/** Audio filter: `seconds` long exactly (padded with silence), faded out over its last `fade` seconds. */
export const audioFilter = (seconds: number, fade: number): string => {
  const end = seconds.toFixed(6)
  const faded = fade > 0 ? `,afade=t=out:st=${Math.max(0, seconds - fade).toFixed(6)}:d=${fade.toFixed(6)}` : ""
  return `aresample=48000,aformat=channel_layouts=stereo,apad,atrim=end=${end}${faded}`
}

/** Arguments for raw yuv420p frames on stdin → H.264 MP4, progress as key=value lines on stdout. */
export const encodeArgs = (
  input: RawInput,
  output: string,
  enc: EncoderSettings = defaultEncoder,
  audio?: AudioSource
): Array<string> => {
  const seconds = input.frames / input.fps
  const audioIn = audio === undefined
    ? []
    : audio.kind === "sound"
    ? ["-stream_loop", "-1", "-i", audio.path]
    : silenceInput
  // A sound fades out over its last half second (a quarter of very short clips).
  const fade = audio?.kind === "sound" ? Math.min(0.5, seconds / 4) : 0
  const audioOut = audio === undefined
    ? ["-an"]
    : ["-map", "0:v:0", "-map", "1:a:0", "-af", audioFilter(seconds, fade), ...audioCodecArgs]
  return [
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
    ...audioIn,
    // With audio, a frame limit would close the file while the audio encoder still holds the last half second.
    ...(audio === undefined ? ["-frames:v", String(input.frames)] : ["-t", seconds.toFixed(6)]),
    ...audioOut,
    "-vf", "setsar=1",
    ...videoCodecArgs(input.fps, enc),
    "-movflags", "+faststart",
    "-f", "mp4",
    "-y", output
  ]
}

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
