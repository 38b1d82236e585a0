import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"

const canBind = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer()
    server.unref()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })

/**
 * A port nobody listens on, drawn below the kernel's ephemeral range (32768-60999): a port the kernel handed out
 * for `listen(0)` can be taken by any outgoing connection (database, fetch) before the node binds it.
 */
export const freePort = async (): Promise<number> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 12000)
    if (await canBind(port)) return port
  }
  throw new Error("no free port between 20000 and 32000")
}

export interface TestNode {
  readonly url: string
  readonly adminToken: string
  readonly dataDir: string
  readonly runnerPort: number
  readonly process: ChildProcess
  readonly output: () => string
  /** SIGTERM and wait for exit. */
  readonly stop: () => Promise<void>
  /** SIGKILL: the node dies without a word. */
  readonly kill: () => Promise<void>
}

export interface NodeOptions {
  readonly databaseUrl?: string
  readonly dataDir?: string
  readonly env?: Record<string, string>
  readonly startTimeoutMs?: number
  /**
   * Run the compiled node (dist/, which the suite's global setup builds) as `npm start` does; false runs the
   * TypeScript sources through tsx. Default: compiled, unless TEST_NODES_FROM_SOURCES=true.
   */
  readonly compiled?: boolean
}

const root = path.resolve(import.meta.dirname, "../..")

/** Through tsx a node spends ~5.3 s of CPU starting, compiled ~2.9 s: the suite starts about a hundred. */
const compiledByDefault = process.env["TEST_NODES_FROM_SOURCES"] !== "true"

/** A loaded 2-core machine (CI's) has taken over 60 s to bring one node up beside other files' nodes. */
const START_TIMEOUT_MS = 120_000

const waitForHealth = async (url: string, child: ChildProcess, timeoutMs: number, output: () => string) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`node exited with ${child.exitCode}:\n${output()}`)
    const ok = await fetch(`${url}/health`).then((r) => r.status === 200, () => false)
    if (ok) return
    await new Promise((r) => setTimeout(r, 150))
  }
  throw new Error(`node did not become healthy in ${timeoutMs} ms:\n${output()}`)
}

/**
 * Starts one clipwright node as its own process, the way an operator does (`node --import tsx src/main.ts`). A start
 * that lost its ports to another process in the meantime is retried on new ones.
 */
export const startNode = async (options: NodeOptions = {}): Promise<TestNode> => {
  for (let attempt = 1;; attempt++) {
    try {
      return await startOnce(options)
    } catch (error) {
      if (attempt >= 3 || !String(error).includes("EADDRINUSE")) throw error
    }
  }
}

interface Launch {
  readonly port: number
  readonly runnerPort: number
  readonly dataDir: string
  readonly adminToken: string
  readonly child: ChildProcess
}

const launch = async (options: NodeOptions): Promise<Launch> => {
  const port = await freePort()
  const runnerPort = await freePort()
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-test-"))
  const adminToken = "test-admin-token-of-24-chars"
  const env: Record<string, string> = {
    ...process.env as Record<string, string>,
    PORT: String(port),
    HOST: "127.0.0.1",
    RUNNER_HOST: "127.0.0.1",
    RUNNER_PORT: String(runnerPort),
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    ...(options.databaseUrl === undefined ? {} : { DATABASE_URL: options.databaseUrl }),
    ...options.env
  }
  if (options.databaseUrl === undefined) delete env["DATABASE_URL"]
  // The heap flags `npm start` and the image use (docs/operating.md "Memory").
  const heap = ["--max-semi-space-size=64", "--max-old-space-size=384"]
  const args = (options.compiled ?? compiledByDefault)
    ? [...heap, "dist/src/main.js"]
    : [...heap, "--import", "tsx", "src/main.ts"]
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: "pipe" })
  return { port, runnerPort, dataDir, adminToken: env["ADMIN_TOKEN"] ?? "", child }
}

/** A node whose settings it must refuse: what it wrote on stderr and its exit code, once it exited. */
export const startRefused = async (
  options: NodeOptions
): Promise<{ readonly code: number | null; readonly stderr: string }> => {
  const { child } = await launch(options)
  let stderr = ""
  child.stderr?.on("data", (d) => (stderr += d))
  child.stdout?.resume()
  const code = await new Promise<number | null>((resolve) => child.once("close", (exitCode) => resolve(exitCode)))
  return { code, stderr }
}

const startOnce = async (options: NodeOptions): Promise<TestNode> => {
  const { adminToken, child, dataDir, port, runnerPort } = await launch(options)
  let log = ""
  child.stdout?.on("data", (d) => (log += d))
  child.stderr?.on("data", (d) => (log += d))
  const output = () => log
  const url = `http://127.0.0.1:${port}`
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const signal = (sig: NodeJS.Signals) => async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig)
    await exited
  }
  try {
    await waitForHealth(url, child, options.startTimeoutMs ?? START_TIMEOUT_MS, output)
  } catch (error) {
    child.kill("SIGKILL")
    throw error
  }
  return {
    url,
    adminToken,
    dataDir,
    runnerPort,
    process: child,
    output,
    stop: signal("SIGTERM"),
    kill: signal("SIGKILL")
  }
}
