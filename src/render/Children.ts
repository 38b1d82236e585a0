import { spawn } from "node:child_process"
import type { ChildProcess, StdioOptions } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, extname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const require = createRequire(import.meta.url)

/** `node [--import tsx] drawer.{ts,js} …`: works from sources (tsx, vitest) and from compiled output. */
export const drawerCommand = (args: ReadonlyArray<string>): { readonly command: string; readonly args: Array<string> } => {
  const here = fileURLToPath(import.meta.url)
  const ext = extname(here)
  const drawer = join(dirname(here), `drawer${ext === ".ts" ? ".ts" : ".js"}`)
  const loader = ext === ".ts" ? ["--import", pathToFileURL(require.resolve("tsx")).href] : []
  return { command: process.execPath, args: [...loader, drawer, ...args] }
}

export const spawnDrawer = (args: ReadonlyArray<string>, stdio: StdioOptions): ChildProcess => {
  const { command, args: argv } = drawerCommand(args)
  return spawn(command, argv, { stdio })
}

export interface Exit {
  readonly code: number | null
  readonly signal: string | null
  readonly error?: Error
}

/** Resolves when the process has exited and its stdio closed; never rejects. */
export const exited = (child: ChildProcess): Promise<Exit> =>
  new Promise((resolve) => {
    let error: Error | undefined
    child.once("error", (e) => {
      error = e
      // A process that never started emits no close event.
      if (child.pid === undefined) resolve({ code: null, signal: null, error: e })
    })
    child.once("close", (code, signal) => resolve({ code, signal, ...(error === undefined ? {} : { error }) }))
  })

/** Keeps the last `max` bytes of a stream as text. */
export const tail = (stream: NodeJS.ReadableStream | null, max = 4096) => {
  let text = ""
  stream?.on("data", (chunk: Buffer) => {
    text = (text + chunk.toString("utf8")).slice(-max)
  })
  return () => text.trim()
}

export const kill = (child: ChildProcess): void => {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
}
