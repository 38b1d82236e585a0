import { createRequire } from "node:module"
import { stillTailGraph } from "./StillTail.js"
import type { StillTail } from "./StillTail.js"

const require = createRequire(import.meta.url)

export interface EncoderSettings {
  readonly codec: string
  readonly preset: string
  readonly crf: number
  /** libx264 options over the preset (`-x264-params`). */
  readonly x264Params?: string
}

/**
 * veryfast with the diamond motion search and one subpixel pass: on our mostly still frames the same SSIM
 * (0.9933 vs 0.9933 at crf 23), files 30 % smaller and x264 about a quarter cheaper than plain veryfast
 * (docs/performance.md, "Rendering speed"). superfast itself turns off mbtree, which makes the files 2.5× larger.
 */
export const defaultEncoder: EncoderSettings = {
  codec: "libx264",
  preset: "veryfast",
  crf: 23,
  x264Params: "me=dia:subme=1"
}

let bundled: string | undefined

/**
 * FFMPEG_PATH when set, else the static build that `npm ci` brings. An `ffmpeg` on PATH is never picked up by
 * itself: every node then encodes with the same build (the one the benchmarks and tests measure) unless the operator
 * names another (docs/operating.md, "Configuration").
 */
export const ffmpegPath = (): string => {
  const env = process.env["FFMPEG_PATH"]
  if (env !== undefined && env !== "") return env
  return (bundled ??= (require("@ffmpeg-installer/ffmpeg") as { readonly path: string }).path)
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
  "-c:v",
  enc.codec,
  "-preset",
  enc.preset,
  "-crf",
  String(enc.crf),
  ...(enc.x264Params !== undefined && enc.codec === "libx264" ? ["-x264-params", enc.x264Params] : []),
  "-pix_fmt",
  "yuv420p",
  "-color_range",
  "tv",
  "-colorspace",
  "bt709",
  "-color_primaries",
  "bt709",
  "-color_trc",
  "bt709",
  "-video_track_timescale",
  String(timescaleOf(fps))
]

export const audioCodecArgs: ReadonlyArray<string> = ["-c:a", "aac", "-b:a", "128k", "-ar", "48000", "-ac", "2"]

export const silenceInput: ReadonlyArray<string> = ["-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo"]

/** Audio filter: `seconds` long exactly (padded with silence), faded out over its last `fade` seconds. */
export const audioFilter = (seconds: number, fade: number): string => {
  const end = seconds.toFixed(6)
  const faded = fade > 0 ? `,afade=t=out:st=${Math.max(0, seconds - fade).toFixed(6)}:d=${fade.toFixed(6)}` : ""
  return `aresample=48000,aformat=channel_layouts=stereo,apad,atrim=end=${end}${faded}`
}

/**
 * A video under the drawn frames: looped, cover-fitted (scaled and cropped) to the frame and resampled to its rate.
 * Its YUV samples pass through untouched (read as BT.709, like the output is tagged).
 */
export interface VideoBackground {
  readonly path: string
}

/** Filter graph laying the drawn yuva420p frames over a looped, cover-fitted video background, to `[v]`. */
const backgroundGraph = (input: RawInput): string => {
  const { width: W, height: H, fps } = input
  return `[1:v]setpts=PTS-STARTPTS,scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H},setsar=1,` +
    `fps=${fps},format=yuv420p[bg];[bg][0:v]overlay=format=yuv420:shortest=1,format=yuv420p[v]`
}

/** How the drawn frames become the clip: as they come, laid over a video background, or with a still tail. */
export type Composition =
  | { readonly kind: "frames" }
  | { readonly kind: "background"; readonly background: VideoBackground }
  | { readonly kind: "still-tail"; readonly tail: StillTail }

/**
 * Arguments for raw frames on stdin → H.264 MP4, progress as key=value lines on stdout. The frames are yuv420p, or
 * yuva420p laid over a video background (transparent where the background shows).
 */
export const encodeArgs = (
  input: RawInput,
  output: string,
  enc: EncoderSettings = defaultEncoder,
  audio?: AudioSource,
  source: Composition = { kind: "frames" }
): Array<string> => {
  const { width: W, height: H, fps } = input
  const seconds = input.frames / fps
  const backgroundIn = source.kind === "background" ? ["-stream_loop", "-1", "-i", source.background.path] : []
  const audioIn = audio === undefined
    ? []
    : audio.kind === "sound"
    ? ["-stream_loop", "-1", "-i", audio.path]
    : silenceInput
  // A sound fades out over its last half second (a quarter of very short clips).
  const fade = audio?.kind === "sound" ? Math.min(0.5, seconds / 4) : 0
  const audioIndex = source.kind === "background" ? 2 : 1
  const graph = source.kind === "background"
    ? backgroundGraph(input)
    : source.kind === "still-tail"
    ? stillTailGraph(source.tail, input.frames, fps)
    : undefined
  const video = graph === undefined ? ["-vf", "setsar=1"] : ["-filter_complex", graph]
  const videoMap = graph === undefined ? "0:v:0" : "[v]"
  const audioOut = audio === undefined
    ? [...(graph === undefined ? [] : ["-map", videoMap]), "-an"]
    : ["-map", videoMap, "-map", `${audioIndex}:a:0`, "-af", audioFilter(seconds, fade), ...audioCodecArgs]
  return [
    "-hide_banner",
    "-nostdin",
    "-loglevel",
    "error",
    "-nostats",
    "-progress",
    "pipe:1",
    "-f",
    "rawvideo",
    "-pix_fmt",
    source.kind === "background" ? "yuva420p" : "yuv420p",
    "-s",
    `${W}x${H}`,
    "-framerate",
    String(fps),
    "-color_range",
    "tv",
    "-colorspace",
    "bt709",
    "-i",
    "pipe:0",
    ...backgroundIn,
    ...audioIn,
    // With audio, a frame limit would close the file while the audio encoder still holds the last half second.
    ...(audio === undefined ? ["-frames:v", String(input.frames)] : ["-t", seconds.toFixed(6)]),
    ...audioOut,
    ...video,
    ...videoCodecArgs(fps, enc),
    "-movflags",
    "+faststart",
    "-f",
    "mp4",
    "-y",
    output
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

/** Arguments for a video decoded to `frames` raw RGBA frames of w×h on stdout, looped and resampled to `fps`. */
export const videoFramesArgs = (path: string, w: number, h: number, fps: number, frames: number): Array<string> => [
  "-hide_banner",
  "-nostdin",
  "-loglevel",
  "error",
  "-stream_loop",
  "-1",
  "-i",
  path,
  "-map",
  "0:v:0",
  "-vf",
  `setpts=PTS-STARTPTS,scale=${w}:${h},fps=${fps},format=rgba`,
  "-frames:v",
  String(frames),
  "-f",
  "rawvideo",
  "-pix_fmt",
  "rgba",
  "pipe:1"
]
