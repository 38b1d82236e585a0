import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { freePort } from "../../test/support/Node.js"

/**
 * A PostgreSQL server of the fault matrix's own (initdb in a temporary folder, a free port on loopback, trust auth),
 * so that restarting it is a fault the matrix can inject without touching the machine's server that other test
 * files use. Runs as the `postgres` user when the runner is root (PostgreSQL refuses to run as root).
 */
export interface PrivatePostgres {
  /** The server's maintenance database, for TEST_DATABASE_URL-style use. */
  readonly adminUrl: string
  /** Stops and starts the server; `immediate` is a crash-like stop (no checkpoint, clients cut off). */
  readonly restart: (mode: "fast" | "immediate", downMs?: number) => Promise<void>
  /** Stops the server (crash-like) until `up`. */
  readonly down: () => void
  readonly up: () => void
  readonly stop: () => Promise<void>
}

const binDir = () => execFileSync("pg_config", ["--bindir"]).toString().trim()

const isRoot = () => process.getuid?.() === 0

/** Runs a PostgreSQL program as the user that owns the data folder. */
const asOwner = (program: string, args: ReadonlyArray<string>) => {
  const bin = path.join(binDir(), program)
  const [command, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, [...args]]
  return execFileSync(command, argv as Array<string>, { stdio: ["ignore", "pipe", "pipe"] }).toString()
}

export const startPrivatePostgres = async (): Promise<PrivatePostgres> => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-pg-"))
  const dataDir = path.join(folder, "data")
  if (isRoot()) execFileSync("chown", ["postgres:", folder])
  const port = await freePort()
  asOwner("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"])
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`
  const start = () => asOwner("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(folder, "log"), "-w", "start"])
  const stopServer = (mode: "fast" | "immediate") => asOwner("pg_ctl", ["-D", dataDir, "-m", mode, "-w", "stop"])
  const running = () => {
    try {
      asOwner("pg_ctl", ["-D", dataDir, "status"])
      return true
    } catch {
      return false
    }
  }
  start()
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    down: () => stopServer("immediate"),
    up: () => {
      if (!running()) start()
    },
    restart: async (mode, downMs = 0) => {
      stopServer(mode)
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs))
      start()
    },
    stop: async () => {
      try {
        stopServer("immediate")
      } finally {
        fs.rmSync(folder, { recursive: true, force: true })
      }
    }
  }
}
