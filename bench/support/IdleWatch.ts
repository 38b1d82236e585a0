import * as fs from "node:fs"
import { allProcesses, cpuMicros, statOf } from "./Proc.js"

// A client backend names itself `postgres: [cluster: ]user database host(port) activity`.
const clientBackend = /^postgres: (?:\S+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/

const commandLineOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")
  } catch {
    return ""
  }
}

/** CPU µs of PostgreSQL's processes, split into the backends of `database` and the server's own processes. */
const postgresCpu = (database: string) => {
  const backends = new Map<number, number>()
  const server = new Map<number, number>()
  for (const process of allProcesses()) {
    if (process.name !== "postgres") continue
    const backend = clientBackend.exec(commandLineOf(process.pid))
    if (backend === null) server.set(process.pid, cpuMicros(process))
    else if (backend[1] === database) backends.set(process.pid, cpuMicros(process))
  }
  return { backends, server }
}

const spentSince = (before: Map<number, number>, now: Map<number, number>) =>
  [...now].reduce((sum, [pid, micros]) => sum + Math.max(0, micros - (before.get(pid) ?? 0)), 0)

export interface IdleCpu {
  readonly seconds: number
  /** CPU % of one core, from /proc/<pid>/stat utime + stime (clock ticks of 10 ms). */
  readonly nodeCpuPct: number
  /** The backends connected to the node's database. */
  readonly backendsCpuPct: number
  /** The server's own processes (WAL writer, checkpointer, autovacuum, …), shared with any other database's work. */
  readonly serverCpuPct: number
}

/** Watches a node and PostgreSQL from now until `stop()`. */
export const watchIdle = (pid: number, database: string) => {
  const started = performance.now()
  const node = cpuMicros(statOf(pid))
  const postgres = postgresCpu(database)
  return {
    stop: (): IdleCpu => {
      const micros = (performance.now() - started) * 1000
      const now = postgresCpu(database)
      return {
        seconds: micros / 1e6,
        nodeCpuPct: (cpuMicros(statOf(pid)) - node) / micros * 100,
        backendsCpuPct: spentSince(postgres.backends, now.backends) / micros * 100,
        serverCpuPct: spentSince(postgres.server, now.server) / micros * 100
      }
    }
  }
}
