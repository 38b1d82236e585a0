/** Intro and outro: normalised once to the drawn clip's encoder settings (cached), then joined by stream copy. */
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdir, rename, unlink, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { audioCodecArgs, audioFilter, silenceInput, videoCodecArgs } from "./Ffmpeg.js"
import type { EncoderSettings } from "./Ffmpeg.js"
import { readMp4Info } from "./Mp4Info.js"
import type { Mp4Info } from "./Mp4Info.js"
import { DrawFailed } from "./RenderError.js"
import { cached, runFfmpeg, sha256Of } from "./Run.js"
import type { BrandClip } from "./Scene.js"

export interface Target {
  readonly width: number
  readonly height: number
  readonly fps: number
}

/** Frames a clip of this length has at `fps` (what normalising makes of it). */
export const framesAt = (durationMs: number, fps: number): number => Math.max(1, Math.round((durationMs * fps) / 1000))

/** Frames an intro or outro adds, read from its `mvhd` box only (no decoding): for durations before rendering. */
export const clipFrames = async (clip: BrandClip, fps: number): Promise<number> => {
  const info = await readMp4Info(clip.path)
  return framesAt(info.video?.durationMs ?? info.durationMs, fps)
}

const verifyFailed = (message: string) =>
  new DrawFailed({ stage: "verify", message, exitCode: null, signal: null, stderrTail: "" })

/**
 * The clip scaled (and padded) to the frame, at the frame rate, with the drawn clip's x264 settings and colour tags,
 * and an AAC 48 kHz stereo track (its own sound, else silence) cut to the video's length. Cached in `cacheDir` by
 * the file's sha256 × size × rate × encoder settings, so each brand clip is normalised once per ratio.
 */
export const normalised = async (
  clip: BrandClip,
  target: Target,
  enc: EncoderSettings,
  cacheDir: string,
  signal?: AbortSignal
): Promise<string> => {
  const sha = clip.sha256 ?? (await sha256Of(clip.path))
  const { fps, height: H, width: W } = target
  const out = join(cacheDir, `clip-${sha.slice(0, 32)}-${W}x${H}-${fps}-${enc.codec}-${enc.preset}-${enc.crf}.mp4`)
  if (existsSync(out)) return out
  return cached(out, async (s) => {
    const info = await readMp4Info(clip.path).catch((e: unknown) => {
      throw verifyFailed(`intro/outro is not a readable mp4: ${String(e)}`)
    })
    if (info.video === undefined) throw verifyFailed("intro/outro has no video track")
    const frames = framesAt(info.video.durationMs, fps)
    const hasAudio = info.tracks.some((t) => t.kind === "audio")
    await mkdir(cacheDir, { recursive: true })
    const tmp = `${out}.${randomBytes(4).toString("hex")}.tmp.mp4`
    const fit = `scale=${W}:${H}:force_original_aspect_ratio=decrease,pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2`
    try {
      await runFfmpeg([
        "-i",
        clip.path,
        ...(hasAudio ? [] : silenceInput),
        "-map",
        "0:v:0",
        "-map",
        hasAudio ? "0:a:0" : "1:a:0",
        "-vf",
        `${fit},fps=${fps},setsar=1,format=yuv420p`,
        // A frame limit would close the file while the audio encoder still holds its last packets.
        "-t",
        (frames / fps).toFixed(6),
        ...videoCodecArgs(fps, enc),
        "-af",
        audioFilter(frames / fps, 0),
        ...audioCodecArgs,
        "-movflags",
        "+faststart",
        "-f",
        "mp4",
        "-y",
        tmp
      ], s)
      await rename(tmp, out)
      return out
    } finally {
      await unlink(tmp).catch(() => undefined)
    }
  }, signal)
}

/** Why stream copy cannot join these files, or undefined when it can (equal avcC records and audio formats). */
export const copyMismatch = (infos: ReadonlyArray<Mp4Info>): string | undefined => {
  const [first] = infos
  const key = (i: Mp4Info) => {
    const v = i.video
    const a = i.tracks.filter((t) => t.kind === "audio")
    return JSON.stringify({
      record: v?.avc?.record,
      w: v?.width,
      h: v?.height,
      fps: v?.fps,
      ts: v?.timescale,
      audio: a.map((t) => [t.codec, t.sampleRate, t.channels])
    })
  }
  if (first === undefined || first.video?.avc === undefined) return "no H.264 video"
  const bad = infos.findIndex((i) => key(i) !== key(first))
  return bad < 0 ? undefined : `segment ${bad + 1} differs from segment 1: ${key(infos[bad]!)} vs ${key(first)}`
}

const quoted = (path: string) => `'${path.replace(/'/g, "'\\''")}'`

/**
 * Joins segments by the concat demuxer, copying the streams (no re-encoding). Each segment ends at its last video
 * frame (`outpoint`): AAC comes in 1024-sample packets, so a segment's audio runs up to 21 ms past its video, which
 * would otherwise push the next segment late by as much.
 */
const joinByCopy = async (parts: ReadonlyArray<Mp4Part>, output: string, signal?: AbortSignal) => {
  const list = `${output}.txt`
  const lines = parts.map((p) => `file ${quoted(p.path)}\noutpoint ${(p.frames / p.fps).toFixed(6)}\n`)
  await writeFile(list, lines.join(""))
  try {
    await runFfmpeg([
      "-f",
      "concat",
      "-safe",
      "0",
      "-i",
      list,
      "-map",
      "0",
      "-c",
      "copy",
      "-movflags",
      "+faststart",
      "-f",
      "mp4",
      "-y",
      output
    ], signal)
  } finally {
    await unlink(list).catch(() => undefined)
  }
}

/** Joins segments in one pass through the concat filter, re-encoding (when the parameter sets differ). */
const joinByEncoding = (
  parts: ReadonlyArray<string>,
  output: string,
  fps: number,
  enc: EncoderSettings,
  signal?: AbortSignal
) => {
  const inputs = parts.flatMap((p) => ["-i", p])
  const pads = parts.map((_, i) => `[${i}:v:0][${i}:a:0]`).join("")
  return runFfmpeg([
    ...inputs,
    "-filter_complex",
    `${pads}concat=n=${parts.length}:v=1:a=1[v][a]`,
    "-map",
    "[v]",
    "-map",
    "[a]",
    ...videoCodecArgs(fps, enc),
    ...audioCodecArgs,
    "-movflags",
    "+faststart",
    "-f",
    "mp4",
    "-y",
    output
  ], signal)
}

export type JoinMethod = "copy" | "encode"

interface Mp4Part {
  readonly path: string
  readonly frames: number
  readonly fps: number
}

/**
 * Joins the (normalised) segments into `output`: stream copy when their parameter sets match and the result holds
 * every frame, else one re-encoding pass. Answers the method used.
 */
export const joinSegments = async (
  parts: ReadonlyArray<string>,
  output: string,
  target: Target,
  enc: EncoderSettings,
  signal?: AbortSignal
): Promise<JoinMethod> => {
  const infos = await Promise.all(parts.map((p) => readMp4Info(p)))
  const expected = infos.reduce((n, i) => n + (i.video?.samples ?? 0), 0)
  const framesOf = async () => (await readMp4Info(output)).video?.samples
  if (copyMismatch(infos) === undefined) {
    const segs = parts.map((path, i) => ({ path, frames: infos[i]!.video?.samples ?? 0, fps: target.fps }))
    const copied = await joinByCopy(segs, output, signal).then(
      () => framesOf().then((n) => n === expected, () => false),
      (e: unknown) => {
        if (e instanceof DrawFailed) return false
        throw e
      }
    )
    if (copied) return "copy"
  }
  await joinByEncoding(parts, output, target.fps, enc, signal)
  return "encode"
}
