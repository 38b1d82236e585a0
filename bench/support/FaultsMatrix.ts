import { fmt, log, sleep, table } from "./Common.js"
import {
  diskFull,
  type Fault,
  killMidDelivery,
  killMidRender,
  postgresRestart,
  receiverDown,
  receiverDownSigned,
  smtpRefusing,
  stopNode,
  storeDown
} from "./Faults.js"
import {
  checkInvariants,
  describeInvariants,
  failureReasons,
  holds,
  type Invariants,
  jobStates
} from "./FaultsChecks.js"
import { dumpUnrecovered, loggedErrors, loggedProblems } from "./FaultsDump.js"
import { type MixPlan, prepareFaults, startMix } from "./FaultsLoad.js"
import { type FaultsRig, startFaultsRig } from "./FaultsRig.js"

export interface FaultsProfile {
  readonly name: string
  readonly mix: MixPlan
  /** Steady mix before the first fault, and the window throughput is measured over before each fault. */
  readonly warmupMs: number
  readonly baselineMs: number
  /** How long after a fault the invariants may take to hold before the fault counts as not recovered. */
  readonly recoveryWindowMs: number
  readonly retrySchedule: string
  /**
   * How much faster than real time the nodes' signing clock runs in the signed-time row (the last), which replaces
   * the nodes by ones on that clock: the retry schedule's waits in signed time.
   */
  readonly signedClockRate: number
  readonly faults: ReadonlyArray<Fault>
  /** The nodes keep their files in an S3-compatible store (s3rver on loopback) instead of the shared DATA_DIR. */
  readonly objectStore?: boolean
}

/**
 * Three nodes of two render slots each share two cores here, so the short mix asks for a new video about every
 * 10 s (stream every 24th event, feed every 5th of one per 4 s, an export a minute): with one every 4 s, renders
 * waited in line faster than the six slots drew them and each row started with the last one's backlog.
 */
export const shortProfile: FaultsProfile = {
  name: "short",
  mix: {
    eventEveryMs: 1000,
    newVideoEvery: 24,
    packageEveryMs: 4000,
    exportEveryMs: 60_000,
    feedEveryMs: 4000,
    packageLeadMs: 3000
  },
  warmupMs: 5000,
  baselineMs: 5000,
  recoveryWindowMs: 180_000,
  retrySchedule: "1s,1s,2s,2s,5s",
  signedClockRate: 120,
  faults: [
    killMidRender,
    killMidDelivery,
    stopNode(10),
    postgresRestart(3),
    receiverDown(5),
    smtpRefusing(5),
    diskFull(5),
    receiverDownSigned(10)
  ]
}

export const fullProfile: FaultsProfile = {
  name: "full",
  mix: {
    eventEveryMs: 500,
    newVideoEvery: 16,
    packageEveryMs: 3000,
    exportEveryMs: 20_000,
    feedEveryMs: 1000,
    packageLeadMs: 3000
  },
  warmupMs: 15_000,
  baselineMs: 15_000,
  recoveryWindowMs: 180_000,
  retrySchedule: "2s,2s,5s,10s,20s,30s",
  signedClockRate: 10,
  faults: [
    killMidRender,
    killMidDelivery,
    stopNode(30),
    postgresRestart(5),
    receiverDown(60),
    smtpRefusing(30),
    diskFull(20),
    receiverDownSigned(10)
  ]
}

/** The short mix with the nodes' files in an object store, and the store taken down (`--profile store`). */
export const storeProfile: FaultsProfile = {
  ...shortProfile,
  name: "store",
  objectStore: true,
  faults: [storeDown(10)]
}

export interface FaultRow {
  readonly fault: string
  readonly note: string
  /** From the fault's start until every invariant held; undefined when they did not within the window. */
  readonly recoveredMs: number | undefined
  /** Events accepted/s from the fault's start until recovery, over the rate in the window before the fault. */
  readonly throughputKept: number
  readonly invariants: Invariants
  /** What the dump found when the fault did not recover (empty when it did): the test's failure message shows it. */
  readonly stuck: ReadonlyArray<string>
}

/** Polls the invariants (jobs from before the fault's end must have settled) until they hold or the window ends. */
const recover = async (
  rig: FaultsRig,
  workspaceId: string,
  acceptedIds: () => Array<string>,
  endedAt: Date,
  windowMs: number
) => {
  const deadline = Date.now() + windowMs
  let toldAt = Date.now()
  for (;;) {
    const invariants = await checkInvariants(rig.db.url, workspaceId, acceptedIds(), rig.receiver.calls, endedAt)
    if (holds(invariants) || Date.now() > deadline) return invariants
    // What is still broken, every 10 s: where a slow recovery spends its time.
    if (Date.now() - toldAt >= 10_000) {
      toldAt = Date.now()
      log(`  waiting: ${describeInvariants(invariants)}`)
    }
    await sleep(500)
  }
}

/** Runs the profile: rig, steady mix, each fault in turn with its recovery and checks; answers one row per fault. */
export const runMatrix = async (profile: FaultsProfile, rigReady?: (rig: FaultsRig) => void) => {
  const rig = await startFaultsRig(profile.retrySchedule, profile.signedClockRate, profile.objectStore === true)
  rigReady?.(rig)
  const rows: Array<FaultRow> = []
  try {
    const ws = await prepareFaults(rig.nodes[0]!, rig.receiver.url)
    rig.receiver.verifyWith(ws.webhookSecret)
    const mix = startMix(
      ws,
      () => rig.nodes.filter((n) => n.process.exitCode === null && n.process.signalCode === null),
      profile.mix
    )
    const acceptedIds = () => mix.accepted.map((a) => a.ingestEventId)
    try {
      await sleep(profile.warmupMs)
      for (const fault of profile.faults) {
        const startedAt = Date.now()
        const before = mix.rate(startedAt - profile.baselineMs, startedAt)
        log(`fault: ${fault.name} (baseline ${fmt(before, 2)} events/s)`)
        const { killed, note } = await fault.inject(rig, ws.workspaceId)
        const endedAt = new Date()
        const invariants = await recover(rig, ws.workspaceId, acceptedIds, endedAt, profile.recoveryWindowMs)
        const recoveredAt = Date.now()
        const ok = holds(invariants)
        log(
          `  ${note}; ${ok ? `recovered in ${recoveredAt - startedAt} ms` : "NOT recovered"}: ${
            describeInvariants(invariants)
          }`
        )
        const dump = ok ? undefined : await dumpUnrecovered(rig, ws.workspaceId, fault.name)
        if (dump !== undefined) {
          log(`  node logs and stuck messages: ${dump.folder}`)
          dump.summary.forEach((line) => log(`    ${line}`))
        }
        rows.push({
          fault: fault.name,
          note,
          recoveredMs: ok ? recoveredAt - startedAt : undefined,
          throughputKept: mix.rate(startedAt, recoveredAt) / Math.max(before, 1e-9),
          invariants,
          stuck: dump?.summary ?? []
        })
        if (killed !== undefined) await rig.replace(killed)
        await sleep(profile.baselineMs)
      }
    } finally {
      mix.stop()
    }
    log(`warnings and errors the nodes logged: ${JSON.stringify(loggedProblems(rig.nodes))}`)
    loggedErrors(rig.nodes, 5).forEach((line) => log(`  ${line}`))
    const states = await jobStates(rig.db.url, ws.workspaceId)
    const failures = await failureReasons(rig.db.url, ws.workspaceId)
    return {
      rows,
      states,
      failures,
      accepted: mix.accepted.length,
      refused: mix.refused,
      sinkMessages: rig.sink.messages.length,
      unverified: rig.receiver.refused()
    }
  } finally {
    await rig.stop()
  }
}

export const matrixTable = (rows: ReadonlyArray<FaultRow>) =>
  table(
    ["fault", "recovered in", "throughput kept", "invariants"],
    rows.map((r) => [
      r.fault,
      r.recoveredMs === undefined ? "not recovered" : `${fmt(r.recoveredMs / 1000, 1)} s`,
      `${fmt(r.throughputKept * 100)} %`,
      `${describeInvariants(r.invariants)} — ${r.note}`
    ])
  )
