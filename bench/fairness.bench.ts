/**
 * `npm run bench:fairness`: how long one post of workspace B takes from its event's 202 to its webhook receiver when B
 * is alone, and while workspace A has a flood of direct-export videos queued (six batches of eight by default), on one
 * node and on three, in one run. Also the renderers' pace (videos finished per minute) drawing A's flood alone against
 * drawing it with B's events among it: taking turns must not cost work.
 *
 * Each topology gets a fresh database of the local PostgreSQL (TEST_DATABASE_URL), compiled nodes sharing one DATA_DIR
 * with their default render slots, and a loopback webhook receiver. B's events are sent one after another (one warm-up
 * first, not counted); the figures are medians. Options: --batches N (6), --events N (3), --nodes 1,3, --json.
 * Not a test: it prints figures next to their targets and exits 0 whether they are met or not.
 */
import * as os from "node:os"
import { parseArgs } from "node:util"
import { printReport, stopsOnce, targetTable } from "./support/BenchRun.js"
import { cleanUpOnSignal, fmt, log, table } from "./support/Common.js"
import { median, runTopology, type TopologyResult } from "./support/FairnessRun.js"

const { values: flags } = parseArgs({
  options: {
    batches: { type: "string", default: "6" },
    events: { type: "string", default: "3" },
    nodes: { type: "string", default: "1,3" },
    json: { type: "boolean", default: false }
  }
})
const batches = Number(flags.batches)
const events = Number(flags.events)
const topologies = flags.nodes.split(",").map(Number)

cleanUpOnSignal(stopsOnce().run)
const loadBefore = os.loadavg()[0]!
const results: Array<TopologyResult> = []
for (const nodes of topologies) results.push(await runTopology(nodes, batches, events))
const loadAfter = os.loadavg()[0]!

const targets: Array<[string, boolean]> = results.flatMap((r) => {
  const alone = median(r.aloneMs)
  const flooded = median(r.floodedMs)
  const bound = 2 * alone + r.medianRenderMs
  const pace = r.perMinuteFlooded / r.perMinuteAlone
  return [
    [
      `${r.nodes} node(s): B under the flood <= 2x alone + one render (${fmt(flooded)} <= ${fmt(bound)} ms)`,
      flooded <= bound
    ],
    [
      `${r.nodes} node(s): renderers' pace under the flood within 5 % of A's flood alone (x${fmt(pace, 3)})`,
      pace >= 0.95
    ]
  ] as Array<[string, boolean]>
})
const cores = os.availableParallelism()
printReport([
  "",
  `clipwright fairness benchmark: ${cores} cores (${os.cpus()[0]?.model.trim() ?? "?"}), Node ${process.version}, ` +
  `A's flood ${batches} x 8 direct-export videos, ${events} events of B (medians), default render slots per node.`,
  `1-min load average ${fmt(loadBefore, 2)} before the run, ${fmt(loadAfter, 2)} after` +
  (loadBefore > cores * 0.75 ? " (WARNING: the machine was busy before the run)." : "."),
  "",
  table(
    [
      "nodes",
      "B alone: 202 → receiver ms",
      "B under A's flood ms",
      "one render ms (median)",
      "pace alone videos/min",
      "pace flooded videos/min",
      "A's starts answered 503"
    ],
    results.map((r) => [
      String(r.nodes),
      `${fmt(median(r.aloneMs))} (${r.aloneMs.map((ms) => fmt(ms)).join(", ")})`,
      `${fmt(median(r.floodedMs))} (${r.floodedMs.map((ms) => fmt(ms)).join(", ")})`,
      fmt(r.medianRenderMs),
      fmt(r.perMinuteAlone, 1),
      fmt(r.perMinuteFlooded, 1),
      String(r.refusedStarts)
    ])
  ),
  "",
  "Where the pace goes: a render's median drawing time and how many renders drew at once on average (their drawing",
  "time over the span; the slots are the most), A's flood alone and with B's events among it; and the pace while work",
  "waited for every slot (videos finished until the last one was handed a slot), without the tail of the last videos;",
  "and the slots' busy share while work waited (their drawing time until then over the slots of the cluster).",
  table(
    [
      "nodes",
      "one render ms alone",
      "one render ms flooded",
      "drawing at once alone",
      "drawing at once flooded",
      "pace while work waited: alone, flooded videos/min (ratio)",
      "slots busy while work waited: alone, flooded"
    ],
    results.map((r) => [
      String(r.nodes),
      fmt(r.medianRenderMs),
      fmt(r.medianRenderFloodedMs),
      fmt(r.drawingAtOnceAlone, 2),
      fmt(r.drawingAtOnceFlooded, 2),
      `${fmt(r.perMinuteWhileWaitingAlone, 1)}, ${fmt(r.perMinuteWhileWaitingFlooded, 1)} ` +
      `(x${fmt(r.perMinuteWhileWaitingFlooded / r.perMinuteWhileWaitingAlone, 3)})`,
      `${fmt(100 * r.busyWhileWaitingAlone, 1)} %, ${fmt(100 * r.busyWhileWaitingFlooded, 1)} %`
    ])
  ),
  "",
  targetTable(targets),
  ""
], flags.json ? { batches, events, results, targets: Object.fromEntries(targets), loadBefore, loadAfter } : undefined)
log("done")
