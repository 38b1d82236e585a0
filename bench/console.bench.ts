/**
 * `npm run bench:console`: how fast the reviewer's pages answer for a busy workspace.
 *
 * Starts one node (`node dist/src/main.js`) on a fresh database of the local PostgreSQL with an SMTP sink, makes a
 * workspace whose channel asks for approval, renders one real post, then copies it by SQL into --jobs jobs (default
 * 10,000) of which --waiting (500) wait for approval, plus decided ones, failed jobs and dead deliveries. A person
 * signs in by email link; then `/console/approvals` (first and a later page), `/console/approvals?state=ANY`,
 * `/console`, the live pipeline (`/console/pipeline`, a later page, the block htmx polls, one job's page) and the
 * deliveries log are each asked --requests times (300) by --concurrency clients (4), after a warm-up.
 * `/health` is asked the same way, as a yardstick of the machine's load. --keep leaves the database for EXPLAIN.
 * Target: p95 <= 100 ms for each page. Not a test: it prints figures next to the target and exits 0.
 */
import { parseArgs } from "node:util"
import { createTestDatabase, query, type TestDatabase } from "../test/support/Database.js"
import { startNode, type TestNode } from "../test/support/Node.js"
import { SESSION_COOKIE, signInOverHttp } from "../test/support/People.js"
import { type SmtpSink, startSmtpSink } from "../test/support/SmtpSink.js"
import { cleanUpOnSignal, fmt, log, sleep, table } from "./support/Common.js"
import { openReviewDesk, seedConsole } from "./support/ConsoleSeed.js"
import { seedDeliveries } from "./support/DeliverySeed.js"

const { values: flags } = parseArgs({
  options: {
    jobs: { type: "string", default: "10000" },
    waiting: { type: "string", default: "500" },
    requests: { type: "string", default: "300" },
    concurrency: { type: "string", default: "4" },
    json: { type: "boolean", default: false },
    keep: { type: "boolean", default: false }
  }
})
const TARGET_P95_MS = 100

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN

/** Asks `path` `n` times from `clients` clients at once; answers each answer's milliseconds, sorted. */
const measure = async (url: string, cookie: string, n: number, clients: number) => {
  const times: Array<number> = []
  let next = 0
  const client = async () => {
    while (next < n) {
      next++
      const started = performance.now()
      const answer = await fetch(url, { headers: { cookie } })
      const body = await answer.text()
      if (answer.status !== 200) throw new Error(`${url}: ${answer.status} ${body.slice(0, 300)}`)
      times.push(performance.now() - started)
    }
  }
  await Promise.all(Array.from({ length: clients }, client))
  return times.sort((a, b) => a - b)
}

let db: TestDatabase | undefined
let node: TestNode | undefined
let sink: SmtpSink | undefined
const cleanUp = async () => {
  await node?.stop()
  await sink?.stop()
  if (flags.keep) log(`kept the database: ${db?.url}`)
  else await db?.drop()
}
cleanUpOnSignal(cleanUp)

try {
  db = await createTestDatabase("bench_console")
  sink = await startSmtpSink()
  node = await startNode({ databaseUrl: db.url, compiled: true, env: { SMTP_URL: sink.url } })
  const desk = await openReviewDesk(node, "owner@example.test")
  const jobId = desk.jobId
  log("rendering the one real post")
  const deadline = Date.now() + 300_000
  while ((await query(db.url, "SELECT 1 FROM approvals WHERE job_id = $1", [jobId])).length === 0) {
    if (Date.now() > deadline) throw new Error("the real post did not come to wait for approval in 5 minutes")
    await sleep(500)
  }
  const jobs = Number(flags.jobs)
  const waiting = Number(flags.waiting)
  log(`copying it into ${jobs} jobs, ${waiting} waiting`)
  await seedConsole(db.url, desk.workspaceId, jobId, { jobs, waiting })
  const { deadId } = await seedDeliveries(db.url, desk.workspaceId)
  const cookie = `${SESSION_COOKIE}=${await signInOverHttp(node, sink, "owner@example.test")}`
  // `/health` is the yardstick: what any answer of this node costs on the machine as loaded now.
  const pages = [
    ["/health (yardstick)", "/health"],
    ["/console/approvals (waiting, page 1)", "/console/approvals"],
    ["/console/approvals (waiting, page 10)", "/console/approvals?state=PENDING&page=10"],
    ["/console/approvals?state=ANY", "/console/approvals?state=ANY"],
    ["/console", "/console"],
    ["/console/pipeline", "/console/pipeline"],
    ["/console/pipeline?page=10", "/console/pipeline?page=10"],
    ["/console/pipeline/live (polled)", "/console/pipeline/live"],
    ["/console/jobs/{id}", `/console/jobs/${jobId}`],
    ["/console/deliveries", "/console/deliveries"],
    ["/console/deliveries?state=DEAD", "/console/deliveries?state=DEAD"],
    ["/console/deliveries/{id} (dead, 3 attempts)", `/console/deliveries/${deadId}`]
  ] as const
  const n = Number(flags.requests)
  const clients = Number(flags.concurrency)
  const rows: Array<Array<string>> = []
  const figures: Array<Record<string, unknown>> = []
  for (const [name, path] of pages) {
    await measure(`${node.url}${path}`, cookie, 30, clients)
    const times = await measure(`${node.url}${path}`, cookie, n, clients)
    const p95 = percentile(times, 95)
    figures.push({ page: path, p50: percentile(times, 50), p95, p99: percentile(times, 99), max: times.at(-1) })
    const target = path === "/health" ? "" : `<= ${TARGET_P95_MS}`
    const verdict = path === "/health" ? "" : p95 <= TARGET_P95_MS ? "met" : "MISSED"
    rows.push([name, fmt(percentile(times, 50), 1), fmt(p95, 1), fmt(percentile(times, 99), 1), target, verdict])
  }
  if (flags.json) process.stdout.write(`${JSON.stringify({ jobs, waiting, requests: n, clients, figures })}\n`)
  else {
    process.stdout.write(
      `bench:console: ${jobs} jobs, ${waiting} waiting, ${n} requests by ${clients} clients per page\n`
    )
    process.stdout.write(`${table(["page", "p50 ms", "p95 ms", "p99 ms", "target p95", "verdict"], rows)}\n`)
  }
} finally {
  await cleanUp()
}
