/**
 * `npm run bench:pipeline`: how long events take from the first 202 until every post is due, against the same renders
 * drawn through direct export in the same run (the render time alone), and how soon a post is due once its video is.
 *
 * Starts one compiled clipwright node on a fresh database of the local PostgreSQL (TEST_DATABASE_URL) and sets up,
 * through the API, a workspace with a high render allowance, a brand, a Market move stream and two channels (9x16 and
 * 1x1) subscribed to it with the build variant pinned, so each event needs two distinct videos; its owner receives the
 * hand-over emails (the node's outbox), so a due post is handed over at once. Events with distinct content are sent at
 * once; the database is polled every 100 ms until no job is rendering. Then, in a second
 * workspace, each video the pipeline drew is exported again (same build and version, content, ratio, locale) with
 * every start sent at once, retried while the queue is full (503).
 * Options: --events N (40), --variant NAME (compact), --json.
 * Not a test: it prints figures next to their targets and exits 0 whether they are met or not.
 */
import * as os from "node:os"
import { parseArgs } from "node:util"
import { OWNER_EMAIL } from "../test/support/Client.js"
import type { TestNode } from "../test/support/Node.js"
import { printReport, targetTable, withBenchNode } from "./support/BenchRun.js"
import { call, fmt, log, table } from "./support/Common.js"
import { watch, type Watched } from "./support/IngestWatch.js"
import { percentile, rendersAtOnce, runPipeline } from "./support/PipelineRun.js"
import { benchWorkspace, preparePipeline } from "./support/PipelineSetup.js"
import { exportSameRenders } from "./support/PipelineYardstick.js"
import { watchChildren } from "./support/TreeCpu.js"

const { values: flags } = parseArgs({
  options: {
    events: { type: "string", default: "40" },
    variant: { type: "string", default: "compact" },
    json: { type: "boolean", default: false }
  }
})
const events = Number(flags.events)
const variant = flags.variant
/** A job whose post is due: waiting for hand-over, being handed over, or handed over. */
const DUE = ["SCHEDULED", "PUBLISHING", "PUBLISHED"]

/** Runs `work` while watching the node (CPU, RSS), its render children and PostgreSQL's processes for its database. */
const watched = async <A>(node: TestNode, database: string, work: () => Promise<A>) => {
  const pid = node.process.pid!
  const server = watch(pid, database)
  const children = watchChildren(pid)
  const result = await work()
  return { result, watched: { ...server.stop(), childrenCpuPct: children.stop() } }
}
type Watch = Watched & { readonly childrenCpuPct: number }

await withBenchNode("bench_pipeline", {}, async ({ node, db, databaseName, loadBefore }) => {
  const target = await preparePipeline(node, variant)
  await call(`${node.url}/admin/workspaces/${target.workspaceId}/members`, "POST", node.adminToken, {
    email: OWNER_EMAIL,
    role: "owner"
  })

  log(`pipeline: ${events} events, 2 channels, variant ${variant}`)
  const pipeline = await watched(node, databaseName, () => runPipeline(node, db, target, events))
  const run = pipeline.result
  log(`export yardstick: the same ${run.distinctRenders} renders through direct export`)
  const yardstickWorkspace = await benchWorkspace(node, "Export yardstick")
  const exported = await watched(
    node,
    databaseName,
    () => exportSameRenders(node, db, { key: target.key, renderJobIds: run.renderJobIds }, yardstickWorkspace)
  )
  const yardstick = exported.result
  const yardstickQuotaUsed = (await call(`${node.url}/v1/renders/quota`, "GET", yardstickWorkspace.key)).json.quota.used

  const ratio = run.wallMs / yardstick.wallMs
  const pipelineAtOnce = await rendersAtOnce(db, target.workspaceId, run.wallMs)
  const yardstickAtOnce = await rendersAtOnce(db, yardstickWorkspace.workspaceId, yardstick.wallMs)
  const p50 = percentile(run.latenciesMs, 50)
  const p99 = percentile(run.latenciesMs, 99)
  const max = Math.max(...run.latenciesMs)
  const expectedJobs = 2 * events
  const dueJobs = DUE.reduce((sum, status) => sum + (run.statuses[status] ?? 0), 0)
  const allDue = dueJobs === expectedJobs && run.jobs === expectedJobs
  const targets: Array<[string, boolean]> = [
    [`pipeline wall <= 1.1x the export wall (x${fmt(ratio, 2)})`, ratio <= 1.1],
    [`p99 render finished -> post due <= 500 ms (${fmt(p99)} ms)`, p99 <= 500],
    [
      `every job due (${DUE.join(", ")}) with one post (${run.jobsWithOnePost}/${expectedJobs})`,
      allDue && run.jobsWithOnePost === expectedJobs
    ],
    [
      `renders counted for the pipeline = ${expectedJobs} (quota used ${run.quotaUsed})`,
      run.quotaUsed === expectedJobs
    ],
    [`every export succeeded (${yardstick.succeeded}/${yardstick.renders})`, yardstick.succeeded === yardstick.renders]
  ]
  const row = (title: string, renders: number, wallMs: number, atOnce: number, w: Watch, notes: string) => [
    title,
    fmt(renders),
    fmt(wallMs / 1000, 1),
    fmt(atOnce, 2),
    fmt(w.serverCpuPct),
    fmt(w.childrenCpuPct),
    fmt(w.postgresCpuPct),
    `${fmt(w.rssStartMb)} → ${fmt(w.rssPeakMb)} MB`,
    notes
  ]
  const loadAfter = os.loadavg()[0]!
  const cores = os.availableParallelism()
  const out = [
    "",
    `clipwright pipeline benchmark: ${cores} cores (${os.cpus()[0]?.model.trim() ?? "?"}), Node ${process.version}, ` +
    `${events} events x 2 channels, variant ${variant}. CPU % is of one core (${cores * 100} = every core); render ` +
    "children are the drawer and ffmpeg processes the node starts; PostgreSQL counts the backends of the bench's " +
    "database and the server's own processes.",
    `1-min load average ${fmt(loadBefore, 2)} before the run, ${fmt(loadAfter, 2)} after` +
    (loadBefore > cores * 0.75 ? " (WARNING: the machine was busy before the run; the walls are long)." : "."),
    "",
    table([
      "run",
      "renders",
      "wall s",
      "drawing at once",
      "node CPU %",
      "render children CPU %",
      "PostgreSQL CPU %",
      "node RSS start → peak",
      "notes"
    ], [
      row(
        "pipeline: first 202 → every post due",
        run.distinctRenders,
        run.wallMs,
        pipelineAtOnce,
        pipeline.watched,
        `jobs ${JSON.stringify(run.statuses)}, quota used ${run.quotaUsed}`
      ),
      row(
        "direct export: first 202 → every render finished",
        yardstick.renders,
        yardstick.wallMs,
        yardstickAtOnce,
        exported.watched,
        `${yardstick.refusedStarts} starts answered 503 and retried, quota used ${yardstickQuotaUsed}`
      )
    ]),
    "",
    `render finished → post due, per job (${run.latenciesMs.length}): p50 ${fmt(p50)} ms, p99 ${fmt(p99)} ms, ` +
    `max ${fmt(max)} ms; "drawing at once" is the renders' summed start-to-finish time over the wall (the node ` +
    `has ${cores} render slots unless RENDER_SLOTS says otherwise)`,
    "",
    targetTable(targets),
    ""
  ]
  printReport(
    out,
    flags.json ?
      {
        events,
        variant,
        pipeline: { ...run, renderJobIds: undefined, latenciesMs: undefined, watched: pipeline.watched },
        latencyMs: { p50, p99, max, all: [...run.latenciesMs].sort((a, b) => a - b) },
        rendersAtOnce: { pipeline: pipelineAtOnce, yardstick: yardstickAtOnce },
        yardstick: { ...yardstick, quotaUsed: yardstickQuotaUsed, watched: exported.watched },
        ratio,
        targets: Object.fromEntries(targets),
        loadBefore,
        loadAfter
      } :
      undefined
  )
})
