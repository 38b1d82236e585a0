import { type ChildProcess, spawn } from "node:child_process"
import * as path from "node:path"
import { freePort } from "../../test/support/Node.js"

/** Helpers the benchmarks share: API calls, a bare node:http yardstick process, and printing. */
export const root = path.resolve(import.meta.dirname, "../..")

export const log = (text: string) => process.stderr.write(`${text}\n`)
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Ctrl-C (or SIGTERM) still runs the bench's clean-up (children, database, files) before exiting. */
export const cleanUpOnSignal = (cleanUp: () => Promise<void>) => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      log(`${signal}: cleaning up`)
      void cleanUp().finally(() => process.exit(130))
    })
  }
}

export const call = async (url: string, method: string, key: string, body?: unknown) => {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`)
  return { text, json: JSON.parse(text) as any }
}

/** A yardstick server script as its own process (same loader as the tests' runtime); resolves once it prints ready. */
export const startPlain = async (script: string, env: Record<string, string>) => {
  const port = await freePort()
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: root,
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "inherit"]
  })
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`plain server exited with ${code}`)))
    child.stdout?.on("data", (d: Buffer) => d.toString().includes("ready") && resolve())
  })
  return { url: `http://127.0.0.1:${port}`, process: child }
}

export const stopChild = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill("SIGTERM")
  await exited
}

export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    `| ${
      cells.map((c, i) => (i === 0 || i >= cells.length - 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
        .join(" | ")
    } |`
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n")
}

export const fmt = (n: number | undefined, digits = 0) =>
  n !== undefined && Number.isFinite(n)
    ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "n/a"
