import * as fs from "node:fs"
import { query } from "../support/Database.js"
import type { TestNode } from "../support/Node.js"

/**
 * The cluster's shard locks on PostgreSQL are advisory locks numbered by @effect/cluster's SqlRunnerStorage:
 * `(index of the group in availableShardGroups + 1) * 1,000,000 + shard`; "default" is the first group.
 */
const DEFAULT_GROUP_BASE = 1_000_000

const socketInodesOf = (pid: number) => {
  const inodes = new Set<string>()
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))
      if (socket !== null) inodes.add(socket[1]!)
    } catch {
      // closed meanwhile
    }
  }
  return inodes
}

/** The local ports of a process's TCP sockets (Linux /proc): its ends of its database connections among them. */
const localPortsOf = (pid: number) => {
  const inodes = socketInodesOf(pid)
  const ports = new Set<number>()
  for (const table of ["tcp", "tcp6"]) {
    for (const line of fs.readFileSync(`/proc/${pid}/net/${table}`, "utf8").split("\n").slice(1)) {
      const columns = line.trim().split(/\s+/)
      if (columns.length > 9 && inodes.has(columns[9]!)) ports.add(parseInt(columns[1]!.split(":")[1]!, 16))
    }
  }
  return ports
}

/**
 * Which node holds each shard of the default group right now ("default:17" → node): the granted advisory locks of
 * the test database, each held by a backend whose client port is one of a node's sockets.
 */
export const defaultShardHolders = async (databaseUrl: string, nodes: ReadonlyArray<TestNode>) => {
  const locks = await query<{ lock: string; port: number }>(
    databaseUrl,
    `
    SELECT l.objid::text AS lock, a.client_port AS port
    FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
    WHERE l.locktype = 'advisory' AND l.granted
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`
  )
  const owners = nodes.map((node) => ({ node, ports: localPortsOf(node.process.pid!) }))
  const holders = new Map<string, TestNode>()
  for (const { lock, port } of locks) {
    const shard = Number(lock) - DEFAULT_GROUP_BASE
    const owner = owners.find((o) => o.ports.has(port))
    if (shard >= 1 && shard < DEFAULT_GROUP_BASE && owner !== undefined) holders.set(`default:${shard}`, owner.node)
  }
  return holders
}
