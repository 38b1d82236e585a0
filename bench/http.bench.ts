/**
 * `npm run bench`: HTTP throughput and latency of one node, against a bare node:http server in the same run.
 *
 * Starts one clipwright node (`node dist/src/main.js`, as `npm start` does) on a fresh database of the local
 * PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), creates a workspace, a key
 * and the streams through the API, measures the idle RSS, then drives each scenario with autocannon.
 * Options: --duration S (10), --connections N (50), --streams N (50), --warmup S (2), --json.
 * Not a test: it prints figures next to their targets and exits 0 whether they are met or not.
 */
import autocannon, { type Options, type Result } from "autocannon"
import * as fs from "node:fs"
import * as os from "node:os"
import { parseArgs } from "node:util"
import { createTestDatabase, type TestDatabase } from "../test/support/Database.js"
import { startNode, type TestNode } from "../test/support/Node.js"
import { printReport } from "./support/BenchRun.js"
import { call, cleanUpOnSignal, fmt, log, sleep, startPlain, stopChild, table } from "./support/Common.js"
import { allProcesses, cpuMicros, statOf } from "./support/Proc.js"

const TEMPLATE_ID = "tpl_3a7c91e04b5d"

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    streams: { type: "string", default: "50" },
    warmup: { type: "string", default: "2" },
    json: { type: "boolean", default: false }
  }
})
const duration = Number(flags.duration)
const connections = Number(flags.connections)
const streamCount = Number(flags.streams)
const warmup = Number(flags.warmup)

/** Resident and peak memory of a process, in MB, from /proc (Linux). */
const memoryOf = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) / 1024
  return { rss: field("VmRSS"), peak: field("VmHWM") }
}

/** CPU time of every PostgreSQL process of this machine's server, in µs. */
const postgresCpu = () =>
  allProcesses().filter((p) => p.name === "postgres").reduce((total, p) => total + cpuMicros(p), 0)
const cpuOf = (pid: number) => cpuMicros(statOf(pid))

const load = (options: Options, seconds: number): Promise<Result> =>
  Promise.resolve(autocannon({ connections, pipelining: 1, timeout: 10, ...options, duration: seconds }))

/**
 * A warm-up run (not counted: JIT, pools, entity start-up), then the measured run, with the CPU the server process
 * and PostgreSQL spent per answered request: steadier than req/s when other work shares the machine.
 */
const measure = async (title: string, options: () => Options, serverPid: number) => {
  if (warmup > 0) {
    log(`warm-up  ${title} (${warmup} s)`)
    await load(options(), warmup)
  }
  log(`measure  ${title} (${duration} s, ${connections} connections)`)
  const server = cpuOf(serverPid)
  const postgres = postgresCpu()
  const result = await load(options(), duration)
  const perRequest = (micros: number) => micros / Math.max(result.requests.total, 1)
  // A PostgreSQL backend that exits during the run takes its CPU time out of the sum.
  return {
    result,
    serverCpu: perRequest(cpuOf(serverPid) - server),
    postgresCpu: perRequest(Math.max(0, postgresCpu() - postgres))
  }
}
type Measured = Awaited<ReturnType<typeof measure>>

interface Row {
  readonly scenario: string
  readonly measured: Measured
  readonly target: string
  readonly met: boolean | undefined
}

const perSecond = (r: Result) => r.requests.total / r.duration

/** The non-2xx answers by status, e.g. ` (503×3)`; empty when there were none. */
const statusesOf = (r: Result) => {
  const codes = Object.entries(r.statusCodeStats ?? {}).filter(([code]) => !code.startsWith("2"))
  return codes.length === 0 ? "" : ` (${codes.map(([code, { count }]) => `${code}×${count}`).join(", ")})`
}

/** A scenario's figures for --json. */
const brief = ({ result: r, serverCpu, postgresCpu }: Measured) => ({
  reqPerSec: perSecond(r),
  p50: r.latency.p50,
  p99: r.latency.p99,
  errors: r.errors + r.timeouts,
  non2xx: r.non2xx,
  statusCodes: r.statusCodeStats,
  total: r.requests.total,
  serverCpuMicrosPerRequest: serverCpu,
  postgresCpuMicrosPerRequest: postgresCpu
})

const main = async () => {
  let database: TestDatabase | undefined
  let node: TestNode | undefined
  let plain: Awaited<ReturnType<typeof startPlain>> | undefined
  let cleaned: Promise<void> | undefined
  const cleanUp = () => (cleaned ??= (async () => {
    if (plain !== undefined) await stopChild(plain.process)
    if (node !== undefined) await node.stop()
    if (database !== undefined) await database.drop()
  })())
  cleanUpOnSignal(cleanUp)
  const loadBefore = os.loadavg()[0]!
  try {
    database = await createTestDatabase("bench")
    log(`database ${new URL(database.url).pathname.slice(1)}; starting the node`)
    const started = Date.now()
    node = await startNode({ databaseUrl: database.url, compiled: true })
    const startMs = Date.now() - started
    const pid = node.process.pid!

    const admin = node.adminToken
    const workspace = (await call(`${node.url}/admin/workspaces`, "POST", admin, { name: "Bench workspace" })).json
    const key: string = (await call(`${node.url}/admin/workspaces/${workspace.accountId}/keys`, "POST", admin, {
      scopes: ["*"],
      name: "bench"
    })).json.apiKey
    const streamIds: Array<string> = []
    for (let i = 0; i < streamCount; i++) {
      const { stream } = (await call(`${node.url}/v1/streams`, "POST", key, {
        name: `Bench stream ${i}`,
        templateId: TEMPLATE_ID
      })).json
      streamIds.push(stream.id)
    }
    const whoamiBody = (await call(`${node.url}/v1/whoami`, "GET", key)).text
    plain = await startPlain("bench/support/PlainServer.ts", { BODY: whoamiBody })

    log("idle 3 s")
    await sleep(3000)
    const idle = memoryOf(pid)

    const auth = { authorization: `Bearer ${key}` }
    const whoami = (url: string) => () => ({ url: `${url}/v1/whoami`, headers: auth })
    let counter = 0
    const update = () => ({
      url: node!.url,
      requests: [{
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        setupRequest: (request: { path?: string; body?: string | Buffer }) => {
          const n = counter++
          request.path = `/v1/streams/${streamIds[n % streamIds.length]}/update`
          request.body = JSON.stringify({ name: `Bench stream ${n}` })
          return request
        }
      }]
    })

    const plainMeasured = await measure("plain node:http GET /v1/whoami", whoami(plain.url), plain.process.pid!)
    const whoamiMeasured = await measure("clipwright GET /v1/whoami", whoami(node.url), pid)
    const updateMeasured = await measure("clipwright POST /v1/streams/{id}/update", update, pid)
    const { result: plainWhoami } = plainMeasured
    const { result: nodeWhoami } = whoamiMeasured
    const { result: nodeUpdate } = updateMeasured
    const after = memoryOf(pid)
    const stored = (await call(`${node.url}/v1/streams`, "GET", key)).json.streams.length

    const rows: Array<Row> = [
      { scenario: "plain node:http GET /v1/whoami", measured: plainMeasured, target: "(yardstick)", met: undefined },
      {
        scenario: "clipwright GET /v1/whoami",
        measured: whoamiMeasured,
        target: ">= 4,000 req/s, p99 <= 25 ms",
        met: perSecond(nodeWhoami) >= 4000 && nodeWhoami.latency.p99 <= 25 &&
          nodeWhoami.non2xx + nodeWhoami.errors === 0
      },
      {
        scenario: `clipwright POST /v1/streams/{id}/update (${streamIds.length} streams)`,
        measured: updateMeasured,
        target: ">= 500 req/s",
        met: perSecond(nodeUpdate) >= 500 && nodeUpdate.non2xx + nodeUpdate.errors === 0
      }
    ]
    const verdict = (met: boolean | undefined) => (met === undefined ? "" : met ? "met" : "MISSED")
    const body = rows.map(({ measured: { result, serverCpu, postgresCpu }, ...row }) => [
      row.scenario,
      fmt(perSecond(result)),
      fmt(result.latency.p50, 1),
      fmt(result.latency.p99, 1),
      `${result.errors + result.timeouts} / ${result.non2xx}${statusesOf(result)}`,
      fmt(serverCpu),
      fmt(postgresCpu),
      row.target,
      verdict(row.met)
    ])
    const rssMet = idle.rss <= 250
    body.push(
      [
        "clipwright idle RSS (3 s after set-up)",
        `${fmt(idle.rss)} MB`,
        "",
        "",
        "",
        "",
        "",
        "<= 250 MB",
        verdict(rssMet)
      ]
    )
    const ratio = perSecond(nodeWhoami) / perSecond(plainWhoami)
    const cores = os.availableParallelism()
    const loadAfter = os.loadavg()[0]!
    const busy = loadBefore > cores / 2
      ? [
        `WARNING: the machine was busy before the run (1-min load ${fmt(loadBefore, 2)} on ${cores} cores); ` +
        "other work competed for the CPU and the figures are low. Run again on a quiet machine.",
        ""
      ]
      : []

    const out = [
      "",
      `clipwright HTTP benchmark: ${cores} cores (${os.cpus()[0]?.model.trim() ?? "?"}), Node ${process.version}, ` +
      `${connections} connections, ${duration} s per scenario after ${warmup} s warm-up; load generator, node, ` +
      `plain server and PostgreSQL share this machine.`,
      `1-min load average ${fmt(loadBefore, 2)} before the run, ${fmt(loadAfter, 2)} after.`,
      "",
      ...busy,
      table([
        "scenario",
        "req/s",
        "p50 ms",
        "p99 ms",
        "errors / non-2xx",
        "server CPU µs/req",
        "PostgreSQL CPU µs/req",
        "target",
        ""
      ], body),
      "",
      `clipwright / plain whoami: ${fmt(ratio * 100, 1)} % of the req/s, p99 ${fmt(nodeWhoami.latency.p99, 1)} ms vs ` +
      `${fmt(plainWhoami.latency.p99, 1)} ms ` +
      `(x${fmt(nodeWhoami.latency.p99 / Math.max(plainWhoami.latency.p99, 1), 1)}); ` +
      `CPU per request x${fmt(whoamiMeasured.serverCpu / Math.max(plainMeasured.serverCpu, 1), 1)}`,
      `node start to healthy: ${fmt(startMs)} ms; RSS after the runs ${fmt(after.rss)} MB, ` +
      `peak ${fmt(after.peak)} MB; ` +
      `stream updates sent ${fmt(nodeUpdate.requests.total)}, ${stored} streams listed afterwards`,
      ""
    ]
    printReport(
      out,
      flags.json ?
        {
          plainWhoami: brief(plainMeasured),
          whoami: brief(whoamiMeasured),
          streamUpdate: brief(updateMeasured),
          idleRssMb: idle.rss,
          rssAfterMb: after.rss,
          peakRssMb: after.peak,
          ratio,
          loadBefore,
          loadAfter
        } :
        undefined
    )
  } finally {
    await cleanUp()
  }
}

await main()
