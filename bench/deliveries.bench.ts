/**
 * `npm run bench:deliveries`: how fast one node hands due posts over by webhook when they fall due in bursts, against
 * a plain loop that signs and POSTs the same bodies with the same HTTP client, in the same run.
 *
 * Starts a loopback receiver as its own process (bench/support/DeliveryReceiver.ts: 200 `{}` at once, arrival times
 * kept) and one compiled clipwright node (ALLOW_PRIVATE_URLS=true) on a fresh database of the local PostgreSQL
 * (TEST_DATABASE_URL). Through the API: a workspace whose webhook is the receiver and one webhook-only channel. The
 * posts are then SEEDED THROUGH SQL as the pipeline leaves them (event, job, post SCHEDULED, one stored clip), so the
 * run measures hand-over alone: no ingest, no rendering. The seeded tables are analyzed (rows that would have trickled
 * in arrive at once); the delivery tables grow as the hand-over writes them. A warm-up burst (another workspace, not
 * counted) goes first; then `--bursts` bursts of `--per-burst` posts fall due every `--every` ms, one webhook call
 * per post. Measured: calls/s while some burst is due and not yet all delivered (the union of each burst's due →
 * last arrival), p50/p99 from a post's `scheduled_for` to its call's arrival at the receiver, the node's CPU and RSS,
 * CPU per call, and where a post's time went by stage. The yardstick then POSTs every delivered body again, signed
 * anew, with an undici Agent 64 at once, from this process.
 * Options: --bursts N (10), --per-burst N (1000), --every MS (1000), --warmup N (500), --json.
 * Not a test: it prints figures next to their targets and exits 0 whether they are met or not.
 */
import * as os from "node:os"
import { parseArgs } from "node:util"
import { plainCompanion, printReport, targetTable, withBenchNode } from "./support/BenchRun.js"
import { fmt, log, table } from "./support/Common.js"
import { type BurstPlan, percentile, runBursts, seedBursts } from "./support/DeliveryRun.js"
import { prepareDeliveries } from "./support/DeliverySetup.js"
import { plainLoop } from "./support/DeliveryYardstick.js"
import { watch } from "./support/IngestWatch.js"
import { cpuMicros, statOf } from "./support/Proc.js"

const { values: flags } = parseArgs({
  options: {
    bursts: { type: "string", default: "10" },
    // 1,000 due every second: the offered load is the target rate, so keeping up is meeting it.
    "per-burst": { type: "string", default: "1000" },
    every: { type: "string", default: "1000" },
    warmup: { type: "string", default: "500" },
    json: { type: "boolean", default: false }
  }
})
const plan: BurstPlan = {
  bursts: Number(flags.bursts),
  perBurst: Number(flags["per-burst"]),
  everyMs: Number(flags.every)
}
const warmup = Number(flags.warmup)

/** CPU % of one core a process used while `work` ran. */
const cpuWhile = async <A>(pid: number, work: () => Promise<A>) => {
  const before = cpuMicros(statOf(pid))
  const started = performance.now()
  const result = await work()
  return { result, cpuPct: (cpuMicros(statOf(pid)) - before) / ((performance.now() - started) * 1000) * 100 }
}

const nodeOptions = {
  env: { ALLOW_PRIVATE_URLS: "true" },
  companion: plainCompanion("receiver", "bench/support/DeliveryReceiver.ts")
}

await withBenchNode(
  "bench_deliveries",
  nodeOptions,
  async ({ node, db, databaseName, companion: receiver, loadBefore }) => {
    if (warmup > 0) {
      log(`warm-up: ${warmup} posts due at once (not counted)`)
      const warm = await prepareDeliveries(node, `${receiver.url}/warmup`)
      const once = { bursts: 1, perBurst: warmup, everyMs: 0 }
      await runBursts(db, warm, await seedBursts(db, warm, once), receiver.url, once, "/warmup")
    }
    const target = await prepareDeliveries(node, `${receiver.url}/hooks`)
    const jobIds = await seedBursts(db, target, plan)
    log(`hand-over: ${plan.bursts} bursts of ${plan.perBurst} posts, one every ${plan.everyMs} ms`)
    const watching = watch(node.process.pid!, databaseName)
    const handed = await cpuWhile(receiver.process.pid!, () => runBursts(db, target, jobIds, receiver.url, plan))
    const watched = watching.stop()
    const run = handed.result
    log(`yardstick: the same ${run.webhookIds} bodies, signed and POSTed by a plain loop`)
    const plain = await cpuWhile(
      receiver.process.pid!,
      () => plainLoop(db, target.workspaceId, target.secret, `${receiver.url}/plain`)
    )

    const rate = run.webhookIds / run.busySeconds
    const sustained = run.webhookIds / run.windowSeconds
    const plainRate = plain.result.ok / plain.result.seconds
    const ratio = rate / plainRate
    const p50 = percentile(run.latenciesMs, 50)
    const p99 = percentile(run.latenciesMs, 99)
    const max = Math.max(...run.latenciesMs)
    /** CPU µs one delivered call cost over the run (seeding excluded). */
    const perCall = (pct: number) => pct * 1e4 * watched.seconds / Math.max(run.webhookIds, 1)
    const plainPerCall = plain.result.cpuPct * 1e4 * plain.result.seconds / Math.max(plain.result.ok, 1)
    const exact = run.postsNotOnce === 0 && run.repeatedIds === 0 && run.unknownIds === 0 &&
      run.states["PUBLISHED"] === run.posts && run.deliveryStates["DELIVERED"] === run.posts
    const targets: Array<[string, boolean]> = [
      [`>= 1,000 delivered webhook calls/s (${fmt(rate)})`, rate >= 1000],
      [`p99 due -> delivered <= 1 s (${fmt(p99)} ms)`, p99 <= 1000],
      [`>= 0.5x the plain loop's calls/s (x${fmt(ratio, 2)})`, ratio >= 0.5],
      [`every post PUBLISHED, delivered once under one webhook-id (${run.webhookIds}/${run.posts})`, exact]
    ]
    const cores = os.availableParallelism()
    const loadAfter = os.loadavg()[0]!
    const out = [
      "",
      `clipwright deliveries benchmark: ${cores} cores (${
        os.cpus()[0]?.model.trim() ?? "?"
      }), Node ${process.version}; ` +
      `${plan.bursts} bursts of ${plan.perBurst} posts due every ${plan.everyMs} ms (offered ` +
      `${
        fmt(plan.perBurst * 1000 / Math.max(plan.everyMs, 1))
      } posts/s), one webhook-only channel, one call per post. ` +
      "Posts were SEEDED THROUGH SQL as SCHEDULED: this measures hand-over alone (claim, deliveries made and signed, " +
      "calls, outcomes), not ingest or rendering. Receiver, node, yardstick and PostgreSQL share this machine; CPU % " +
      `is of one core (${cores * 100} = every core).`,
      `1-min load average ${fmt(loadBefore, 2)} before the run, ${fmt(loadAfter, 2)} after` +
      (loadBefore > cores / 2 ? " (WARNING: the machine was busy before the run; the figures are low)." : "."),
      "",
      table([
        "run",
        "calls",
        "calls/s",
        "p50 ms",
        "p99 ms",
        "node CPU %",
        "PostgreSQL CPU %",
        "receiver CPU %",
        "node RSS start → peak",
        "notes"
      ], [
        [
          "clipwright hand-over: due → receiver",
          fmt(run.calls),
          fmt(rate),
          fmt(p50),
          fmt(p99),
          fmt(watched.serverCpuPct),
          fmt(watched.postgresCpuPct),
          fmt(handed.cpuPct),
          `${fmt(watched.rssStartMb)} → ${fmt(watched.rssPeakMb)} MB`,
          `busy ${fmt(run.busySeconds, 2)} s of a ${fmt(run.windowSeconds, 2)} s window (${fmt(sustained)} calls/s ` +
          `over it); max ${fmt(max)} ms`
        ],
        [
          "plain loop: sign + undici POST, 64 at once",
          fmt(plain.result.calls),
          fmt(plainRate),
          "",
          "",
          `${fmt(plain.result.cpuPct)} (loop)`,
          "",
          fmt(plain.cpuPct),
          "",
          `${plain.result.ok} answered 2xx in ${fmt(plain.result.seconds, 2)} s`
        ]
      ]),
      "",
      `posts ${JSON.stringify(run.states)}, deliveries ${JSON.stringify(run.deliveryStates)}; posts not carried by ` +
      `exactly one delivered call ${run.postsNotOnce}, webhook-ids that came twice ${run.repeatedIds}, unknown ` +
      `${run.unknownIds}; clipwright / plain loop x${fmt(ratio, 2)}`,
      `CPU per delivered call: node ${fmt(perCall(watched.serverCpuPct))} µs, PostgreSQL ` +
      `${fmt(perCall(watched.postgresCpuPct))} µs, receiver ${fmt(perCall(handed.cpuPct))} µs; the plain loop ` +
      `${fmt(plainPerCall)} µs, its receiver ${
        fmt(plain.cpuPct * 1e4 * plain.result.seconds / Math.max(plain.result.ok, 1))
      } µs`,
      "",
      "Where a post's time went (from the tables: claim time, delivery made, attempt started, outcome recorded; " +
      "arrival from the receiver):",
      table(["stage", "p50 ms", "p99 ms"], run.stages.map((s) => [s.name, fmt(s.p50Ms), fmt(s.p99Ms)])),
      "",
      targetTable(targets),
      ""
    ]
    printReport(
      out,
      flags.json ?
        {
          plan,
          warmup,
          handOver: {
            ...run,
            latenciesMs: undefined,
            callsPerSec: rate,
            sustainedPerSec: sustained,
            watched,
            receiverCpuPct: handed.cpuPct,
            nodeCpuMicrosPerCall: perCall(watched.serverCpuPct),
            postgresCpuMicrosPerCall: perCall(watched.postgresCpuPct)
          },
          latencyMs: { p50, p99, max },
          plain: {
            ...plain.result,
            callsPerSec: plainRate,
            receiverCpuPct: plain.cpuPct,
            cpuMicrosPerCall: plainPerCall
          },
          ratio,
          targets: Object.fromEntries(targets),
          loadBefore,
          loadAfter
        } :
        undefined
    )
  }
)
