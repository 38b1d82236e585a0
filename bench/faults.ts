/**
 * `npm run faults`: the fault matrix (first part). Three nodes on one fresh PostgreSQL database (TEST_DATABASE_URL's
 * server), a loopback webhook receiver and an SMTP sink; a steady mix of stream events (two channels, one with
 * approval that a loop approves), post-list packages due every few seconds and direct exports now and then; then one
 * fault at a time, each followed by a recovery wait and the invariant checks (bench/support/FaultsChecks.ts). Prints
 * the table docs/faults.md shows.
 * Options: --profile short|full|store (full; store: the short mix with the files in an S3-compatible store on
 * loopback, which goes down for 10 s); --only <words> runs the faults whose name contains them (e.g. --only SIGSTOP).
 */
import { parseArgs } from "node:util"
import { cleanUpOnSignal, log } from "./support/Common.js"
import { fullProfile, matrixTable, runMatrix, shortProfile, storeProfile } from "./support/FaultsMatrix.js"
import type { FaultsRig } from "./support/FaultsRig.js"

const { values: flags } = parseArgs({
  options: { profile: { type: "string", default: "full" }, only: { type: "string" } }
})
const profiles = { short: shortProfile, full: fullProfile, store: storeProfile } as const
const chosen = profiles[(flags.profile ?? "full") as keyof typeof profiles] ?? fullProfile
const profile = flags.only === undefined
  ? chosen
  : { ...chosen, faults: chosen.faults.filter((fault) => fault.name.toLowerCase().includes(flags.only!.toLowerCase())) }

let rig: FaultsRig | undefined
cleanUpOnSignal(async () => {
  await rig?.stop()
})
log(`fault matrix, ${profile.name} profile: ${profile.faults.map((f) => f.name).join(", ")}`)
const result = await runMatrix(profile, (r) => (rig = r))
process.stdout.write([
  "",
  matrixTable(result.rows),
  "",
  `events accepted ${result.accepted}; requests no node answered or refused ${result.refused.length}` +
  `${result.refused.length > 0 ? ` (${result.refused.slice(0, 3).map((r) => r.what).join("; ")})` : ""}; ` +
  `emails at the sink ${result.sinkMessages}; webhook calls the receiver refused (signature or timestamp) ` +
  `${result.unverified}; jobs at the end ${JSON.stringify(result.states)}`,
  ...Object.entries(result.failures).map(([reason, n]) => `  ${n} × ${reason}`),
  ""
].join("\n"))
process.exit(result.rows.every((r) => r.recoveredMs !== undefined) ? 0 : 1)
