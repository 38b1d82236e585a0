import * as fs from "node:fs"

/** One process as `/proc/<pid>/stat` shows it: its command name and the fields after it (`fields[0]` is the state). */
export interface ProcStat {
  readonly pid: number
  readonly name: string
  readonly fields: ReadonlyArray<string>
}

/** Linux clock ticks per second (`getconf CLK_TCK`), the unit of the CPU times in stat. */
const TICKS = 100

export const statOf = (pid: number | "self"): ProcStat => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
  const close = stat.lastIndexOf(")")
  return {
    pid: pid === "self" ? process.pid : pid,
    name: stat.slice(stat.indexOf("(") + 1, close),
    fields: stat.slice(close + 2).split(" ")
  }
}

/** Every process of the machine; one that ends while we read is left out. */
export const allProcesses = (): Array<ProcStat> => {
  const found: Array<ProcStat> = []
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      found.push(statOf(Number(entry)))
    } catch {
      // ended meanwhile
    }
  }
  return found
}

export const parentOf = (process: ProcStat) => Number(process.fields[1])

/** CPU time the process itself has used (user + system), in µs. */
export const cpuMicros = (process: ProcStat) => (Number(process.fields[11]) + Number(process.fields[12])) * 1e6 / TICKS

/** CPU time of the process's reaped children (user + system), in seconds. */
export const childrenCpuSeconds = (process: ProcStat) =>
  (Number(process.fields[13]) + Number(process.fields[14])) / TICKS
