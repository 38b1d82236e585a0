/**
 * `npm run bench:ingest`: how many events per second one node accepts on `POST /v1/stream`, against a plain
 * `node:http` + `pg` yardstick doing the same durable writes with one transaction per event, in the same run.
 *
 * Starts one clipwright node (`node dist/src/main.js`, as `npm start` does) on a fresh database of the local
 * PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and sets up, through the API, a
 * workspace, a key, a brand, one Market move stream with an empty field map and two channels subscribed to it, so
 * every event is accepted with two jobs. The yardstick (bench/support/PlainIngestServer.ts) runs as its own process on
 * its own fresh database with the same tables. Each route gets the same senders sending the same body, a fresh ULID
 * eventId per request: a warm-up (not counted), then the measured window, with the server's and PostgreSQL's CPU and
 * the server's peak RSS. Afterwards the databases are counted: every accepted answer must be a stored event with 2 jobs.
 * Options: --duration S (10), --warmup S (2), --senders N (50), --json.
 * Not a test: it prints figures next to their targets and exits 0 whether they are met or not.
 */
import * as os from "node:os"
import { parseArgs } from "node:util"
import { createTestDatabase, type TestDatabase } from "../test/support/Database.js"
import { startNode, type TestNode } from "../test/support/Node.js"
import { printReport, targetTable } from "./support/BenchRun.js"
import { cleanUpOnSignal, fmt, log, startPlain, stopChild, table } from "./support/Common.js"
import { sendEvents, type Sent } from "./support/IngestLoad.js"
import { countLanded, marketEvent, prepareClipwright } from "./support/IngestSetup.js"
import { watch, type Watched } from "./support/IngestWatch.js"

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    senders: { type: "string", default: "50" },
    json: { type: "boolean", default: false }
  }
})
const duration = Number(flags.duration)
const warmup = Number(flags.warmup)
const senders = Number(flags.senders)

const databaseOf = (url: string) => new URL(url).pathname.slice(1)

interface Route {
  readonly title: string
  readonly sent: Sent
  readonly watched: Watched
  /** CPU % of this process (the senders) over the measured window: it shares the machine with the server. */
  readonly sendersCpuPct: number
  /** Accepted answers over warm-up and measured window, and what the database holds afterwards. */
  readonly acceptedInAll: number
  readonly landed: Awaited<ReturnType<typeof countLanded>>
}

/** A warm-up (JIT, pools, entity start-up; not counted), then the measured window under watch. */
const drive = async (
  title: string,
  url: string,
  key: string,
  body: (eventId: string) => string,
  pid: number,
  databaseUrl: string
): Promise<Route> => {
  let acceptedInAll = 0
  if (warmup > 0) {
    log(`warm-up  ${title} (${warmup} s)`)
    acceptedInAll += (await sendEvents({ url, key, senders, seconds: warmup, body })).accepted
  }
  log(`measure  ${title} (${duration} s, ${senders} senders)`)
  const watching = watch(pid, databaseOf(databaseUrl))
  const ownCpu = process.cpuUsage()
  const sent = await sendEvents({ url, key, senders, seconds: duration, body })
  const watched = watching.stop()
  const { user, system } = process.cpuUsage(ownCpu)
  acceptedInAll += sent.accepted
  const sendersCpuPct = (user + system) / (watched.seconds * 1e6) * 100
  return { title, sent, watched, sendersCpuPct, acceptedInAll, landed: await countLanded(databaseUrl) }
}

const perSecond = (route: Route) => route.sent.accepted / route.sent.seconds
const failuresOf = (sent: Sent) => {
  const kinds = Object.entries(sent.failures)
  return kinds.length === 0 ? "0" : kinds.map(([kind, n]) => `${kind} ×${n}`).join(", ")
}
/** CPU µs one accepted event cost the server (or PostgreSQL) over the measured window. */
const cpuPerEvent = (route: Route, who: "server" | "postgres" = "server") =>
  (who === "server" ? route.watched.serverCpuPct : route.watched.postgresCpuPct) * 1e4 / Math.max(perSecond(route), 1)
const durable = (route: Route) =>
  route.landed.events === route.acceptedInAll && route.landed.jobs === 2 * route.acceptedInAll &&
  route.landed.repeatedEventIds === 0

/** A route's figures for --json. */
const brief = (route: Route) => ({
  acceptedPerSec: perSecond(route),
  answers: route.sent.answers,
  accepted: route.sent.accepted,
  failures: route.sent.failures,
  p50Ms: route.sent.p50Ms,
  p99Ms: route.sent.p99Ms,
  ...route.watched,
  sendersCpuPct: route.sendersCpuPct,
  seconds: route.sent.seconds,
  acceptedInAll: route.acceptedInAll,
  landed: route.landed,
  durable: durable(route)
})

const main = async () => {
  let database: TestDatabase | undefined
  let plainDatabase: TestDatabase | undefined
  let node: TestNode | undefined
  let plain: Awaited<ReturnType<typeof startPlain>> | undefined
  let cleaned: Promise<void> | undefined
  const cleanUp = () => (cleaned ??= (async () => {
    if (plain !== undefined) await stopChild(plain.process)
    if (node !== undefined) await node.stop()
    if (plainDatabase !== undefined) await plainDatabase.drop()
    if (database !== undefined) await database.drop()
  })())
  cleanUpOnSignal(cleanUp)
  const loadBefore = os.loadavg()[0]!
  try {
    database = await createTestDatabase("bench_ingest")
    plainDatabase = await createTestDatabase("bench_ingest_plain")
    log(`databases ${databaseOf(database.url)}, ${databaseOf(plainDatabase.url)}; starting the node and the yardstick`)
    node = await startNode({ databaseUrl: database.url, compiled: true })
    const target = await prepareClipwright(node)
    plain = await startPlain("bench/support/PlainIngestServer.ts", { DATABASE_URL: plainDatabase.url })
    const body = marketEvent(target.streamId)

    const yardstick = await drive(
      "plain node:http + pg, 1 transaction per event",
      `${plain.url}/v1/stream`,
      target.key,
      body,
      plain.process.pid!,
      plainDatabase.url
    )
    await stopChild(plain.process)
    const clipwright = await drive(
      "clipwright POST /v1/stream",
      `${node.url}/v1/stream`,
      target.key,
      body,
      node.process.pid!,
      database.url
    )

    const ratio = perSecond(clipwright) / perSecond(yardstick)
    const c = clipwright.sent
    const targets: Array<[string, boolean]> = [
      [`>= 1,500 accepted events/s (${fmt(perSecond(clipwright))})`, perSecond(clipwright) >= 1500],
      [`p99 <= 100 ms (${fmt(c.p99Ms, 1)} ms)`, c.p99Ms <= 100],
      [`node RSS <= 400 MB (peak ${fmt(clipwright.watched.rssPeakMb)} MB)`, clipwright.watched.rssPeakMb <= 400],
      [`>= the yardstick's accepted/s (x${fmt(ratio, 2)})`, ratio >= 1],
      [`no failed answers (${failuresOf(c)})`, Object.keys(c.failures).length === 0]
    ]
    const cores = os.availableParallelism()
    const loadAfter = os.loadavg()[0]!
    const rows = [yardstick, clipwright].map((route) => [
      route.title,
      fmt(perSecond(route)),
      fmt(route.sent.p50Ms, 1),
      fmt(route.sent.p99Ms, 1),
      fmt(route.watched.serverCpuPct),
      fmt(route.watched.postgresCpuPct),
      fmt(route.sendersCpuPct),
      `${fmt(route.watched.rssStartMb)} → ${fmt(route.watched.rssPeakMb)} MB`,
      failuresOf(route.sent)
    ])
    const durability = (route: Route) =>
      `${route.title}: ${fmt(route.acceptedInAll)} accepted answers (warm-up included); ingest_events ` +
      `${fmt(route.landed.events)}, jobs ${fmt(route.landed.jobs)}, eventIds stored twice ` +
      `${route.landed.repeatedEventIds}: ${
        durable(route) ? "every accepted event stored once with 2 jobs" : "MISMATCH"
      }`
    const out = [
      "",
      `clipwright ingest benchmark: ${cores} cores (${os.cpus()[0]?.model.trim() ?? "?"}), Node ${process.version}, ` +
      `${senders} senders, ${duration} s per route after ${warmup} s warm-up; load generator, node, yardstick and ` +
      "PostgreSQL share this machine. CPU % is of one core (200 = both of 2 cores); PostgreSQL counts the backends " +
      "of the route's database and the server's own processes.",
      `1-min load average ${fmt(loadBefore, 2)} before the run, ${fmt(loadAfter, 2)} after` +
      (loadBefore > cores / 2 ? " (WARNING: the machine was busy before the run; the figures are low)." : "."),
      "",
      table([
        "route",
        "accepted/s",
        "p50 ms",
        "p99 ms",
        "server CPU %",
        "PostgreSQL CPU %",
        "senders CPU %",
        "RSS start → peak",
        "failures"
      ], rows),
      "",
      targetTable(targets, "target (clipwright)"),
      "",
      `clipwright / yardstick: x${fmt(ratio, 2)} the accepted events/s; server CPU per accepted event ` +
      `${fmt(cpuPerEvent(clipwright))} µs vs ${fmt(cpuPerEvent(yardstick))} µs, PostgreSQL CPU per event ` +
      `${fmt(cpuPerEvent(clipwright, "postgres"))} µs vs ${fmt(cpuPerEvent(yardstick, "postgres"))} µs`,
      durability(yardstick),
      durability(clipwright),
      ""
    ]
    printReport(
      out,
      flags.json ?
        {
          senders,
          duration,
          warmup,
          yardstick: brief(yardstick),
          clipwright: brief(clipwright),
          ratio,
          targets: Object.fromEntries(targets),
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
