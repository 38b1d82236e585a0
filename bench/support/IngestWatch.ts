import * as fs from "node:fs"
import { allProcesses, cpuMicros, statOf } from "./Proc.js"

/** Resident memory of a process in MB, from /proc (Linux); 0 once it is gone. */
export const rssMbOf = (pid: number) => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}

const commandLineOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")
  } catch {
    return ""
  }
}

// A client backend names itself `postgres: [cluster: ]user database host(port) activity`.
const clientBackend = /^postgres: (?:\S+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/

/**
 * CPU time (µs) of each PostgreSQL process that works for `database`: its client backends, and the server's own
 * processes (postmaster, WAL writer, checkpointer, …) that every commit leans on. Backends of other databases (other
 * work sharing the server) are left out.
 */
const postgresCpu = (database: string) => {
  const byPid = new Map<number, number>()
  for (const process of allProcesses()) {
    if (process.name !== "postgres") continue
    const backend = clientBackend.exec(commandLineOf(process.pid))
    if (backend !== null && backend[1] !== database) continue
    byPid.set(process.pid, cpuMicros(process))
  }
  return byPid
}

const cpuOf = (pid: number) => {
  try {
    return cpuMicros(statOf(pid))
  } catch {
    return 0
  }
}

export interface Watched {
  readonly seconds: number
  readonly rssStartMb: number
  readonly rssPeakMb: number
  /** CPU % of one core over the window: 200 is both cores of a 2-core machine. */
  readonly serverCpuPct: number
  readonly postgresCpuPct: number
}

/**
 * Watches a server process and the PostgreSQL processes of its database from now until `stop()`: the peak RSS
 * (sampled every 50 ms) and the CPU both spent. A backend that starts meanwhile counts from zero; one that exits
 * meanwhile takes its time with it (a pool keeps its connections, so that is rare).
 */
export const watch = (pid: number, database: string) => {
  const started = performance.now()
  const server = cpuOf(pid)
  const postgres = postgresCpu(database)
  const rssStartMb = rssMbOf(pid)
  let rssPeakMb = rssStartMb
  const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rssMbOf(pid))), 50)
  return {
    stop: (): Watched => {
      clearInterval(sampler)
      const micros = (performance.now() - started) * 1000
      let postgresMicros = 0
      for (const [backend, now] of postgresCpu(database)) {
        postgresMicros += Math.max(0, now - (postgres.get(backend) ?? 0))
      }
      return {
        seconds: micros / 1e6,
        rssStartMb,
        rssPeakMb: Math.max(rssPeakMb, rssMbOf(pid)),
        serverCpuPct: (cpuOf(pid) - server) / micros * 100,
        postgresCpuPct: postgresMicros / micros * 100
      }
    }
  }
}
