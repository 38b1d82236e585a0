/**
 * `npm run bench:fairness`: how long one post of workspace B takes from its event's 202 to its webhook receiver when B
 * is alone, and while workspace A has a flood of direct-export videos queued (six batches of eight by default), on one
 * node and on three, in one run, each the same workload twice: with the nodes serving the render queue in arrival
 * order (TEST_RENDER_ORDER=arrival, the order before workspaces took turns) and in the fair order. The renderers' pace
 * (videos drawn per minute while the flood waited for slots) fair over arrival is what taking turns costs in work.
 *
 * Each topology and order gets a fresh database of the local PostgreSQL (TEST_DATABASE_URL), compiled nodes sharing
 * one DATA_DIR, and a loopback webhook receiver. The nodes share this machine's cores as render slots (`--slots
 * split`: three nodes on two cores get 1, 1 and 0, as three machines' renderers would each have their own cores);
 * `--slots default` gives every node its default (one slot per core of the machine, so several nodes draw more at once
 * than there are cores); `--slots 2,1,0` names them. B's events are sent one after another (one warm-up first, not
 * counted); the figures are medians. Options: --batches N (6), --events N (3), --nodes 1,3, --slots split|default|
 * N,N,…, --rounds N (1; 2 runs arrival, fair, fair, arrival), --json.
 * Not a test: it prints figures next to their targets and exits 0 whether they are met or not.
 */
import * as os from "node:os"
import { parseArgs } from "node:util"
import { printReport, stopsOnce, targetTable } from "./support/BenchRun.js"
import { cleanUpOnSignal, fmt, log, table } from "./support/Common.js"
import {
  median,
  type NodeSlots,
  type OrderResult,
  runTopology,
  splitCores,
  type TopologyResult
} from "./support/FairnessRun.js"

const { values: flags } = parseArgs({
  options: {
    batches: { type: "string", default: "6" },
    events: { type: "string", default: "3" },
    nodes: { type: "string", default: "1,3" },
    rounds: { type: "string", default: "1" },
    slots: { type: "string", default: "split" },
    json: { type: "boolean", default: false }
  }
})
const batches = Number(flags.batches)
const events = Number(flags.events)
const topologies = flags.nodes.split(",").map(Number)
const rounds = Number(flags.rounds)
const slotsOf = (nodes: number): NodeSlots =>
  flags.slots === "split"
    ? splitCores(nodes)
    : flags.slots === "default"
    ? Array.from({ length: nodes }, () => undefined)
    : flags.slots.split(",").map(Number)

cleanUpOnSignal(stopsOnce().run)
const loadBefore = os.loadavg()[0]!
const results: Array<TopologyResult> = []
for (const nodes of topologies) results.push(await runTopology(nodes, slotsOf(nodes), batches, events, rounds))
const loadAfter = os.loadavg()[0]!

const cores = os.availableParallelism()
/** "3 (slots 1, 1, 0)": the topology as the tables name it. */
const topology = (r: TopologyResult) =>
  `${r.nodes} (slots ${r.slots.map((n) => (n === undefined ? `${cores}` : String(n))).join(", ")})`
const ratio = (r: TopologyResult) => r.fair.pace.perMinuteWhileWaiting / r.arrival.pace.perMinuteWhileWaiting
const bOf = (o: OrderResult) => ({ alone: median(o.aloneMs), flooded: median(o.floodedMs) })
const targets: Array<[string, boolean]> = results.flatMap((r) => {
  const { alone, flooded } = bOf(r.fair)
  const bound = 2 * alone + r.fair.pace.medianRenderMs
  const name = `${topology(r)} node(s)`
  return [
    [
      `${name}, fair order: B under the flood <= 2x alone + one render (${fmt(flooded)} <= ${fmt(bound)} ms)`,
      flooded <= bound
    ],
    [
      `${name}: renderers' pace under the flood, fair order within 5 % of arrival order, same workload ` +
      `(x${fmt(ratio(r), 3)})`,
      ratio(r) >= 0.95
    ]
  ] as Array<[string, boolean]>
})
const both = (r: TopologyResult, f: (o: OrderResult) => string) => `${f(r.arrival)} / ${f(r.fair)}`
printReport([
  "",
  `clipwright fairness benchmark: ${cores} cores (${os.cpus()[0]?.model.trim() ?? "?"}), Node ${process.version}, ` +
  `A's flood ${batches} x 8 direct-export videos, ${events} events of B (medians), render slots per node: ` +
  `${flags.slots === "split" ? "the machine's cores split among the nodes" : flags.slots}; ` +
  `each topology runs the same workload in arrival order (before the turns) and in the fair order, ${rounds} ` +
  "round(s), the first order alternating; several rounds are pooled (B's times) and averaged (the pace).",
  `1-min load average ${fmt(loadBefore, 2)} before the run, ${fmt(loadAfter, 2)} after` +
  (loadBefore > cores * 0.75 ? " (WARNING: the machine was busy before the run)." : "."),
  "",
  table(
    [
      "nodes",
      "order",
      "B alone: 202 → receiver ms",
      "B under A's flood ms",
      "flood / alone",
      "B's first event (sent while the flood was queued) / alone",
      "one render ms (median)",
      "A's starts answered 503",
      "1-min load before, after"
    ],
    results.flatMap((r) =>
      [r.arrival, r.fair].map((o) => [
        topology(r),
        o.order,
        `${fmt(bOf(o).alone)} (${o.aloneMs.map((ms) => fmt(ms)).join(", ")})`,
        `${fmt(bOf(o).flooded)} (${o.floodedMs.map((ms) => fmt(ms)).join(", ")})`,
        `x${fmt(bOf(o).flooded / bOf(o).alone, 1)}`,
        `x${fmt(median(o.firstFloodedMs) / bOf(o).alone, 1)}`,
        fmt(o.pace.medianRenderMs),
        String(o.refusedStarts),
        `${fmt(o.load[0], 1)}, ${fmt(o.load[1], 1)}`
      ])
    )
  ),
  "",
  "The renderers under the same workload (A's flood with B's events among it), arrival / fair: videos drawn per minute",
  "while the flood waited for slots (from the first render's start until A's last render was handed a slot, each",
  "render counted by its share drawn in that window), their ratio (the 5 % target), the whole span's pace (with the",
  "tail: the last videos drawn with slots idle, and in arrival order B's later posts drawn after the flood), a render's",
  "median drawing time, how many drew at once over the span, and the slots' busy share while the flood waited.",
  table(
    [
      "nodes",
      "pace while waiting videos/min",
      "fair / arrival",
      "whole span videos/min",
      "one render ms",
      "drawing at once",
      "slots busy while waiting"
    ],
    results.map((r) => [
      topology(r),
      both(r, (o) => fmt(o.pace.perMinuteWhileWaiting, 1)),
      `x${fmt(ratio(r), 3)}`,
      both(r, (o) => fmt(o.pace.perMinute, 1)),
      both(r, (o) => fmt(o.pace.medianRenderMs)),
      both(r, (o) => fmt(o.pace.drawingAtOnce, 2)),
      both(r, (o) => `${fmt(100 * o.pace.busyWhileWaiting, 1)} %`)
    ])
  ),
  "",
  "Where B's time went (medians, ms): from its POST until its render was queued, waiting for a slot, drawing, and from",
  "the drawn clip to the receiver (the post made and handed over).",
  table(
    ["nodes", "order", "B", "to the queue", "waiting for a slot", "drawing", "to the receiver"],
    results.flatMap((r) =>
      [r.arrival, r.fair].flatMap((o) =>
        ([["alone", o.aloneStages], ["under the flood", o.floodedStages]] as const).map(([phase, stages]) => [
          topology(r),
          o.order,
          phase,
          ...(["toQueueMs", "waitMs", "drawMs", "handOverMs"] as const).map((k) => fmt(median(stages.map((s) => s[k]))))
        ])
      )
    )
  ),
  "",
  targetTable(targets),
  ""
], flags.json ? { batches, events, results, targets: Object.fromEntries(targets), loadBefore, loadAfter } : undefined)
log("done")
