import { allProcesses, childrenCpuSeconds, cpuMicros, parentOf, type ProcStat } from "./Proc.js"

/**
 * CPU time (µs) a process's children have used, ended and running: a reaped child's time (with its own reaped
 * children's) is in the parent's stat, a running one's is read from its own. Renders run in short-lived children
 * (drawer, ffmpeg), which the node's own CPU figure leaves out.
 */
export const childrenCpuMicros = (root: number) => {
  const processes = allProcesses()
  const childrenOf = new Map<number, Array<ProcStat>>()
  for (const process of processes) {
    const parent = parentOf(process)
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), process])
  }
  const reaped = (process: ProcStat) => childrenCpuSeconds(process) * 1e6
  const below = (pid: number): number =>
    (childrenOf.get(pid) ?? []).reduce((sum, child) => sum + cpuMicros(child) + reaped(child) + below(child.pid), 0)
  const self = processes.find((p) => p.pid === root)
  return (self === undefined ? 0 : reaped(self)) + below(root)
}

/** Watches the children's CPU from now: `stop()` gives their CPU % of one core over the window. */
export const watchChildren = (root: number) => {
  const started = performance.now()
  const before = childrenCpuMicros(root)
  return { stop: () => (childrenCpuMicros(root) - before) / ((performance.now() - started) * 1000) * 100 }
}
