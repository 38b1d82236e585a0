/** A video played frame by frame inside the drawer (a brand badge): an ffmpeg child decoding to raw RGBA. */
import { spawn } from "node:child_process"
import type { Readable } from "node:stream"
import { ffmpegPath, videoFramesArgs } from "./Ffmpeg.js"

export interface VideoFrames {
  /** The next w×h RGBA frame, or undefined once the video gave out (unreadable, or ended early). */
  readonly next: () => Promise<Buffer | undefined>
  readonly close: () => void
}

/**
 * Reads exact `size`-byte records from a stream, holding at most a few records (the decoder waits on the pipe
 * meanwhile). A 'data' listener, not paused reads: when a child exits, Node resumes its paused stdout and drops the
 * unread data.
 */
export const recordReader = (stream: Readable, size: number): () => Promise<Buffer | undefined> => {
  const high = size * 4
  let chunks: Array<Buffer> = []
  let length = 0
  let ended = false
  let wake: (() => void) | undefined
  stream.on("data", (c: Buffer) => {
    chunks.push(c)
    length += c.length
    if (length >= high) stream.pause()
    wake?.()
  })
  const end = () => {
    ended = true
    wake?.()
  }
  stream.once("end", end)
  stream.once("error", end)
  stream.once("close", end)
  return async () => {
    while (length < size && !ended) await new Promise<void>((resolve) => (wake = resolve))
    wake = undefined
    if (length < size) return undefined
    const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
    const rest = all.subarray(size)
    chunks = rest.length === 0 ? [] : [rest]
    length = rest.length
    if (length < high) stream.resume()
    return all.subarray(0, size)
  }
}

/** Starts decoding `frames` frames of the video at w×h and `fps` (looped as needed). */
export const videoFrames = (path: string, w: number, h: number, fps: number, frames: number): VideoFrames => {
  const child = spawn(ffmpegPath(), videoFramesArgs(path, w, h, fps, frames), { stdio: ["ignore", "pipe", "ignore"] })
  child.on("error", () => undefined)
  const stdout = child.stdout
  const next = recordReader(stdout, w * h * 4)
  return {
    next,
    close: () => {
      stdout.destroy()
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    }
  }
}
