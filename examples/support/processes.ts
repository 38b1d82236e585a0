/**
 * The programs the example starts: a clipwright node, the shipped webhook receiver and the operator CLI, each run
 * the way a person runs them from the project folder (`npm start`, `npx clipwright receiver`, `npx clipwright admin`),
 * only started through `node` directly so that stopping one stops the program itself, not an npm wrapper.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"

/** The project folder (the example lives in `examples/support/`). */
export const projectDir = path.resolve(import.meta.dirname, "../..")
const cli = path.join(projectDir, "bin/clipwright.js")

/** The shell's environment without the settings named, so that the example's own choices hold. */
const envWithout = (...names: ReadonlyArray<string>) =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !names.includes(name)))

/** `preferred` when nothing listens on it, else one the system hands out. */
export const portFor = async (preferred: number): Promise<number> => {
  const listenOn = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const server = net.createServer()
      server.once("error", () => resolve(undefined))
      server.listen(port, "127.0.0.1", () => {
        const { port: taken } = server.address() as net.AddressInfo
        server.close(() => resolve(taken))
      })
    })
  return (await listenOn(preferred)) ?? (await listenOn(0)) ?? preferred
}

/** A program the example started: its output so far, a wait for a line of it, and a stop that waits for its exit. */
export interface Started {
  readonly output: () => string
  readonly waitForLine: (test: RegExp, timeoutMs: number) => Promise<string>
  readonly stop: () => Promise<void>
}

/** Every program started and not yet stopped, in the order they started. */
const live = new Set<Started>()

/** Stops every program the example started, the last started first: after a success, a failure or Ctrl-C alike. */
export const stopAll = async () => {
  for (const program of [...live].reverse()) await program.stop()
}

const started = (name: string, child: ChildProcess, logFile: string): Started => {
  let output = ""
  const log = fs.createWriteStream(logFile)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8")
      log.write(chunk)
    })
  }
  const waitForLine = async (test: RegExp, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const line = output.split("\n").find((l) => test.test(l))
      if (line !== undefined) return line
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited; see ${logFile}`)
      if (Date.now() > deadline) throw new Error(`${name} printed no line like ${test} in ${timeoutMs} ms`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM")
      // A node finishes what it holds (renders, deliveries) before it exits; it gets half a minute.
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
      await exited
      clearTimeout(timer)
    }
    await new Promise((r) => log.end(r))
    live.delete(program)
  }
  const program = { output: () => output, waitForLine, stop }
  // Known from the moment it is spawned, so that an interruption while it starts stops it too.
  live.add(program)
  return program
}

export interface NodeSettings {
  readonly port: number
  readonly dataDir: string
  readonly logFile: string
}

/**
 * `npm start` with the settings the example needs. The embedded database (no `DATABASE_URL`), the outbox for email
 * (no `SMTP_URL`) and local files (no `STORAGE_URL`) keep everything in `dataDir`, whatever the shell has set.
 * `ALLOW_PRIVATE_URLS=true` lets the node deliver webhooks to the receiver on this machine. Without `ADMIN_TOKEN` the
 * node makes one on its first start and keeps it in `dataDir/admin-token`, where the CLI finds it.
 */
export const startNode = async (settings: NodeSettings): Promise<Started & { readonly url: string }> => {
  const env = envWithout("DATABASE_URL", "PUBLIC_BASE_URL", "SMTP_URL", "STORAGE_URL", "ADMIN_TOKEN")
  const child = spawn(
    process.execPath,
    ["--max-semi-space-size=64", "--max-old-space-size=384", "dist/src/main.js"],
    {
      cwd: projectDir,
      env: {
        ...env,
        PORT: String(settings.port),
        HOST: "127.0.0.1",
        DATA_DIR: settings.dataDir,
        ALLOW_PRIVATE_URLS: "true"
      },
      stdio: ["ignore", "pipe", "pipe"]
    }
  )
  const node = started("the node", child, settings.logFile)
  const url = `http://localhost:${settings.port}`
  const deadline = Date.now() + 90_000
  while (!(await fetch(`${url}/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await node.stop()
      throw new Error(`the node did not start; its log is ${settings.logFile}:\n${node.output().slice(-2000)}`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  return { ...node, url }
}

/** `npx clipwright receiver --secret … --port …`: checks each webhook's signature and prints one line per post. */
export const startReceiver = async (secret: string, port: number, logFile: string) => {
  const child = spawn(process.execPath, [cli, "receiver", "--secret", secret, "--port", String(port)], {
    cwd: projectDir,
    stdio: ["ignore", "pipe", "pipe"]
  })
  const receiver = started("the receiver", child, logFile)
  await receiver.waitForLine(/^listening on /, 60_000).catch(async (error) => {
    await receiver.stop()
    throw error
  })
  return receiver
}

/**
 * `npx clipwright admin …` against the node: the operator's commands (workspaces, keys, the webhook address). The
 * CLI finds the node on `PORT` and the admin token in `DATA_DIR/admin-token`, as it does beside `npm start`.
 */
export const admin = (node: NodeSettings, args: ReadonlyArray<string>): Promise<Record<string, unknown>> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, "admin", ...args],
      {
        cwd: projectDir,
        env: { ...envWithout("CLIPWRIGHT_URL", "ADMIN_TOKEN"), PORT: String(node.port), DATA_DIR: node.dataDir }
      },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`clipwright admin ${args.join(" ")} failed:\n${stderr}`))
        else resolve(JSON.parse(stdout) as Record<string, unknown>)
      }
    )
  })
