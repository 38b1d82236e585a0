import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { createTestDatabase, type TestDatabase } from "./Database.js"
import { startNode, type TestNode } from "./Node.js"

/** The process ids of a process's children (a node's drawer and ffmpeg), none once it is gone. */
export const childrenOf = (pid: number): Array<number> => {
  try {
    return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)]).toString().trim().split(/\s+/).filter(Boolean).map(
      Number
    )
  } catch {
    return []
  }
}

/** A render is drawn in the node's own children: the drawer (`node … drawer… video`) and ffmpeg. */
export const isDrawing = (pid: number) => {
  try {
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")
    return command.includes("ffmpeg") || command.includes("drawer")
  } catch {
    return false
  }
}

export interface ClusterOptions {
  readonly nodes: number
  readonly env?: Record<string, string>
  /** One DATA_DIR for every node, as a shared volume in production: a video one node stores is served by all. */
  readonly sharedDataDir?: boolean
  /** That shared DATA_DIR, when the caller made it (and removes it); else a temporary folder is made. */
  readonly dataDir?: string
  /** The PostgreSQL server's maintenance database to create the cluster's database on (default: the machine's). */
  readonly adminUrl?: string
}

export interface TestCluster {
  readonly db: TestDatabase
  /** In start order (the first one migrated the database); a replaced node takes its predecessor's place. */
  readonly nodes: ReadonlyArray<TestNode>
  /** Starts a fresh node on the same database and DATA_DIR in a dead one's place. */
  readonly replace: (dead: TestNode) => Promise<TestNode>
  /** SIGKILLs a node. Its drawer and ffmpeg lose their parent but not their lives: `stop` ends them. */
  readonly kill: (node: TestNode) => Promise<void>
  /** Stops every node and what a killed one left running, drops the database and removes the shared DATA_DIR. */
  readonly stop: () => Promise<void>
}

export const killNow = (pid: number) => {
  try {
    process.kill(pid, "SIGKILL")
  } catch {
    // already gone
  }
}

/** A fresh database and `nodes` nodes on it. If any fails to start, what did start is stopped before the error. */
export const startCluster = async (label: string, options: ClusterOptions): Promise<TestCluster> => {
  const db = await createTestDatabase(label, options.adminUrl, { migrated: true })
  const madeDataDir = options.dataDir === undefined && options.sharedDataDir === true
    ? fs.mkdtempSync(path.join(os.tmpdir(), `clipwright-${label.replaceAll("_", "-")}-`))
    : undefined
  const dataDir = options.dataDir ?? madeDataDir
  const nodes: Array<TestNode> = []
  const orphans: Array<number> = []
  const stop = async () => {
    orphans.forEach(killNow)
    await Promise.all(nodes.map((node) => node.stop()))
    await db.drop()
    if (madeDataDir !== undefined) fs.rmSync(madeDataDir, { recursive: true, force: true })
  }
  const start = () =>
    startNode({
      databaseUrl: db.url,
      ...(dataDir === undefined ? {} : { dataDir }),
      ...(options.env === undefined ? {} : { env: options.env })
    })
  try {
    // The first node starts alone (on an empty database it runs the migrations); the others start together after it.
    nodes.push(await start())
    const others = await Promise.allSettled(Array.from({ length: options.nodes - 1 }, start))
    for (const other of others) if (other.status === "fulfilled") nodes.push(other.value)
    const failed = others.find((other) => other.status === "rejected")
    if (failed !== undefined) throw failed.reason
  } catch (error) {
    await stop()
    throw error
  }
  const kill = async (node: TestNode) => {
    orphans.push(...childrenOf(node.process.pid!))
    await node.kill()
  }
  const replace = async (dead: TestNode) => {
    const fresh = await start()
    nodes.splice(nodes.indexOf(dead), 1, fresh)
    return fresh
  }
  return { db, nodes, kill, replace, stop }
}
