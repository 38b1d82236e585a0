/**
 * `npm run bench:schedule`: how late post-list packages fire, whether any fires twice, and what a node holding many
 * future packages costs while nothing is due.
 *
 * Starts one compiled clipwright node on a fresh database of the local PostgreSQL (TEST_DATABASE_URL) and sets up,
 * through the API, 20 workspaces with 3 post lists each. No channel listens to the lists: a package fires into an
 * event with no jobs, so what is measured is the firing (timer, event, package FIRED), not renders. Then:
 * 1. idle with no package (the baseline), the node's and PostgreSQL's CPU over --idle seconds;
 * 2. 10,000 packages scheduled a day ahead, then idle again over --idle seconds;
 * 3. 1,000 packages due within the same minute (spread evenly over it), all scheduled before the first is due;
 *    lateness is `fired_at − scheduled_for` from the table, and every package must have exactly one event.
 * CPU comes from /proc/<pid>/stat (utime + stime) of the node and of PostgreSQL's processes.
 * Options: --workspaces N (20), --lists N per workspace (3), --due N (1000), --spread S (60), --future N (10000),
 * --idle S (30), --json.
 * Not a test: it prints figures next to their targets and exits 0 whether they are met or not.
 */
import * as os from "node:os"
import { parseArgs } from "node:util"
import type { TestNode } from "../test/support/Node.js"
import { printReport, targetTable, withBenchNode } from "./support/BenchRun.js"
import { fmt, log, sleep, table } from "./support/Common.js"
import { type IdleCpu, watchIdle } from "./support/IdleWatch.js"
import { percentile } from "./support/PipelineRun.js"
import { firingOf, waitFired } from "./support/ScheduleRun.js"
import { prepareLists, schedulePackages } from "./support/ScheduleSetup.js"

const { values: flags } = parseArgs({
  options: {
    workspaces: { type: "string", default: "20" },
    lists: { type: "string", default: "3" },
    due: { type: "string", default: "1000" },
    spread: { type: "string", default: "60" },
    future: { type: "string", default: "10000" },
    idle: { type: "string", default: "30" },
    json: { type: "boolean", default: false }
  }
})
const workspaces = Number(flags.workspaces)
const listsPerWorkspace = Number(flags.lists)
const due = Number(flags.due)
const spreadMs = Number(flags.spread) * 1000
const future = Number(flags.future)
const idleMs = Number(flags.idle) * 1000
/** Time for the node to finish what the last requests started (entities, group commits, the storage's ANALYZE). */
const SETTLE_MS = 10_000
const DAY_MS = 86_400_000

const idle = async (node: TestNode, database: string, label: string) => {
  await sleep(SETTLE_MS)
  log(`idle     ${label} (${idleMs / 1000} s)`)
  const watching = watchIdle(node.process.pid!, database)
  await sleep(idleMs)
  return watching.stop()
}

await withBenchNode("bench_schedule", {}, async ({ node, db, databaseName, loadBefore }) => {
  const lists = await prepareLists(node, workspaces, listsPerWorkspace)
  log(`${lists.length} lists in ${workspaces} workspaces`)

  const baseline = await idle(node, databaseName, "no package")
  log(`schedule ${future} packages a day ahead`)
  const tomorrow = Date.now() + DAY_MS
  const held = await schedulePackages(node, lists, future, (i) => new Date(tomorrow + i * 1000))
  const holding = await idle(node, databaseName, `${future} future packages`)

  // The batch is scheduled at the rate the future packages were, with room to spare, before its first is due.
  const rate = future > 0 ? future / (held.ms / 1000) : 50
  const firstDue = Date.now() + Math.max(15_000, (due / rate) * 1500 + 5000)
  log(`schedule ${due} packages due from ${new Date(firstDue).toISOString()} over ${spreadMs / 1000} s`)
  const batch = await schedulePackages(node, lists, due, (i) => new Date(firstDue + Math.floor((i * spreadMs) / due)))
  const scheduledInTime = Date.now() < firstDue
  await sleep(Math.max(0, firstDue - Date.now()))
  const firingWatch = watchIdle(node.process.pid!, databaseName)
  await waitFired(db, batch.ids, firstDue + spreadMs + 60_000)
  const firingCpu = firingWatch.stop()
  const firing = await firingOf(db, batch.ids)
  const futureFiring = await firingOf(db, held.ids)

  const p50 = percentile(firing.latenessMs, 50)
  const p99 = percentile(firing.latenessMs, 99)
  const max = Math.max(...firing.latenessMs)
  const targets: Array<[string, boolean]> = [
    [
      `every package of the batch fired (${firing.fired}/${due}), none early (${firing.early})`,
      firing.fired === due && firing.early === 0
    ],
    [`p99 lateness <= 1 s (${fmt(p99)} ms)`, p99 <= 1000],
    [
      `none fired twice: one event per package, the one it names (${firing.notOnce} not so), no jobs (${firing.jobs})`,
      firing.notOnce === 0 && firing.jobs === 0
    ],
    [`no future package fired (${futureFiring.fired})`, futureFiring.fired === 0 && futureFiring.notOnce === 0],
    [`idle node CPU holding ${future} future packages <= 2% (${fmt(holding.nodeCpuPct, 2)}%)`, holding.nodeCpuPct <= 2]
  ]
  const cpuRow = (title: string, cpu: IdleCpu, notes: string) => [
    title,
    fmt(cpu.seconds, 1),
    fmt(cpu.nodeCpuPct, 2),
    fmt(cpu.backendsCpuPct, 2),
    fmt(cpu.serverCpuPct, 2),
    notes
  ]
  const cores = os.availableParallelism()
  const loadAfter = os.loadavg()[0]!
  const out = [
    "",
    `clipwright schedule benchmark: ${cores} cores (${os.cpus()[0]?.model.trim() ?? "?"}), Node ${process.version}, ` +
    `${lists.length} lists in ${workspaces} workspaces, no listening channel. CPU % is of one core; "PostgreSQL ` +
    `backends" are the connections to the bench's database, "PostgreSQL server" the server's own processes ` +
    "(shared with whatever else the server does).",
    `1-min load average ${fmt(loadBefore, 2)} before the run, ${fmt(loadAfter, 2)} after` +
    (loadBefore > cores * 0.75 ? " (WARNING: the machine was busy before the run)." : "."),
    "",
    table(["window", "s", "node CPU %", "PostgreSQL backends CPU %", "PostgreSQL server CPU %", "notes"], [
      cpuRow("idle, no package", baseline, ""),
      cpuRow(`idle, ${future} future packages`, holding, `scheduled in ${fmt(held.ms / 1000, 1)} s (${fmt(rate)}/s)`),
      cpuRow(
        `firing ${due} packages`,
        firingCpu,
        `scheduled in ${fmt(batch.ms / 1000, 1)} s` +
          (scheduledInTime ? "" : " (WARNING: not all before the first was due)")
      )
    ]),
    "",
    `lateness (fired_at − scheduled_for) of ${firing.latenessMs.length} packages due over ${spreadMs / 1000} s: ` +
    `p50 ${fmt(p50)} ms, p99 ${fmt(p99)} ms, max ${fmt(max)} ms`,
    "",
    targetTable(targets),
    ""
  ]
  printReport(
    out,
    flags.json ?
      {
        workspaces,
        lists: lists.length,
        due,
        spreadMs,
        future,
        idle: { baseline, holding },
        firingCpu,
        scheduling: { futureMs: held.ms, batchMs: batch.ms, scheduledInTime },
        latenessMs: { p50, p99, max, all: [...firing.latenessMs].sort((a, b) => a - b) },
        firing: { ...firing, latenessMs: undefined },
        futureFiring: { ...futureFiring, latenessMs: undefined },
        targets: Object.fromEntries(targets),
        loadBefore,
        loadAfter
      } :
      undefined
  )
})
