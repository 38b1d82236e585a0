import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import { exited, kill, tail } from "./Children.js"
import { ffmpegPath } from "./Ffmpeg.js"
import { DrawFailed, RenderInterrupted } from "./RenderError.js"

// A function, so TypeScript does not narrow `aborted` across awaits.
export const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true

/** Runs one ffmpeg to completion; aborting kills it. Rejects with DrawFailed (`encode`) or RenderInterrupted. */
export const runFfmpeg = async (args: ReadonlyArray<string>, signal?: AbortSignal): Promise<void> => {
  if (isAborted(signal)) throw new RenderInterrupted()
  const child = spawn(ffmpegPath(), ["-hide_banner", "-nostdin", "-loglevel", "error", ...args], {
    stdio: ["ignore", "ignore", "pipe"]
  })
  const exit = exited(child)
  const err = tail(child.stderr)
  const abort = () => kill(child)
  signal?.addEventListener("abort", abort, { once: true })
  const e = await exit
  signal?.removeEventListener("abort", abort)
  if (isAborted(signal)) throw new RenderInterrupted()
  if (e.code !== 0) {
    throw new DrawFailed({
      stage: "encode",
      message: e.error?.message ?? "ffmpeg failed",
      exitCode: e.code,
      signal: e.signal,
      stderrTail: err()
    })
  }
}

export const sha256Of = (file: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const hash = createHash("sha256")
    createReadStream(file)
      .on("error", reject)
      .on("data", (c) => hash.update(c))
      .on("end", () => resolve(hash.digest("hex")))
  })

const inFlight = new Map<string, Promise<string>>()

/**
 * Makes a cached file once per process and key: concurrent callers share one ffmpeg run (`make` writes to a
 * temporary path renamed into place, so a half-written file is never taken for a cached one). When the caller that
 * started the run is interrupted, the others start their own.
 */
export const cached = async (
  key: string,
  make: (signal?: AbortSignal) => Promise<string>,
  signal?: AbortSignal
): Promise<string> => {
  for (;;) {
    let running = inFlight.get(key)
    if (running === undefined) {
      running = make(signal).finally(() => inFlight.delete(key))
      inFlight.set(key, running)
    }
    try {
      return await running
    } catch (e) {
      if (!(e instanceof RenderInterrupted) || isAborted(signal)) throw e
    }
  }
}
