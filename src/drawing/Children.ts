import { spawn } from "node:child_process"
import type { ChildProcess, StdioOptions } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, extname, join } from "node:path"
import type { Duplex } from "node:stream"
import { fileURLToPath, pathToFileURL } from "node:url"
import type { StillTail } from "./StillTail.js"

const require = createRequire(import.meta.url)
const here = fileURLToPath(import.meta.url)
const fromSources = extname(here) === ".ts"

/**
 * From sources, the drawer is bundled once with esbuild into node_modules/.cache (keyed by the sources'
 * hash): starting it then costs ~0.1 s instead of ~0.4 s through the tsx loader, and that start is
 * pure wall time of every render. Packages stay external, so they resolve from the project's node_modules.
 */
const bundle = (): string | undefined => {
  try {
    const dir = dirname(here)
    const hash = createHash("sha256")
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".ts")).sort()) {
      hash.update(f).update(readFileSync(join(dir, f)))
    }
    const modules = join(dirname(require.resolve("@napi-rs/canvas/package.json")), "..", "..")
    const out = join(modules, ".cache", "clipwright-render", `drawer-${hash.digest("hex").slice(0, 16)}.mjs`)
    if (existsSync(out)) return out
    mkdirSync(dirname(out), { recursive: true })
    for (const old of readdirSync(dirname(out)).filter((n) => n.startsWith("drawer-"))) {
      rmSync(join(dirname(out), old), { force: true })
    }
    const esbuild = require("esbuild") as typeof import("esbuild")
    const tmp = `${out}.${process.pid}.tmp`
    esbuild.buildSync({
      entryPoints: [join(dir, "drawer.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      outfile: tmp,
      logLevel: "silent"
    })
    renameSync(tmp, out)
    return out
  } catch {
    return undefined
  }
}

let entry: { readonly file: string; readonly loader: ReadonlyArray<string> } | undefined

const drawerEntry = () => {
  if (entry !== undefined) return entry
  if (!fromSources) return (entry = { file: join(dirname(here), "drawer.js"), loader: [] })
  const bundled = process.env["CLIPWRIGHT_DRAWER_TSX"] === "1" ? undefined : bundle()
  return (entry = bundled !== undefined
    ? { file: bundled, loader: [] }
    : { file: join(dirname(here), "drawer.ts"), loader: ["--import", pathToFileURL(require.resolve("tsx")).href] })
}

/** `node drawer …`: a compiled or bundled drawer, else the TypeScript source through tsx. */
export const drawerCommand = (
  args: ReadonlyArray<string>
): { readonly command: string; readonly args: Array<string> } => {
  const { file, loader } = drawerEntry()
  return { command: process.execPath, args: ["--expose-gc", ...loader, file, ...args] }
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

export interface DrawerPlan {
  /** Set when ffmpeg is to draw the still tail; null when the drawer sends every frame. */
  readonly tail: StillTail | null
  /** Lets the drawer start writing frames (ffmpeg must hold its stdout by then). */
  readonly go: () => void
}

/** The drawer's first line on fd 3 (see drawer.ts); undefined when it ends without one. */
export const announcement = (drawer: ChildProcess): Promise<DrawerPlan | undefined> =>
  new Promise((resolve) => {
    const control = drawer.stdio[3] as Duplex | null | undefined
    if (control === null || control === undefined) return resolve(undefined)
    let text = ""
    control.on("error", () => resolve(undefined))
    control.on("close", () => resolve(undefined))
    control.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8")
      const end = text.indexOf("\n")
      if (end < 0) return
      try {
        const { tail } = JSON.parse(text.slice(0, end)) as { readonly tail: StillTail | null }
        resolve({ tail, go: () => control.write("g") })
      } catch {
        resolve(undefined)
      }
    })
  })
