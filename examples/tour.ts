/**
 * `npm run example`: the whole product in one go, as an integrator's script talks to it. It starts a node (on the
 * embedded database) and the shipped webhook receiver, makes a workspace with a brand, a stream and two channels,
 * sends an event and approves its post, fires a post list's post, exports a clip, shows what arrived and how to sign
 * in to the console, and stops what it started. Each step is a file of examples/steps/; docs/example.md walks
 * through them.
 *
 * Everything it makes is under `OUT_DIR` (default `./out`): the node's `data/` (made afresh each run), the logs and
 * `clip.mp4`. The node listens on `PORT` (default 8080, or a free port when 8080 is taken), the receiver on
 * `RECEIVER_PORT` (default 8787, likewise). `--keep` leaves both running until Ctrl-C, to look around the console.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { makeChannels } from "./steps/channels.js"
import { signInLink } from "./steps/console.js"
import { exportClip } from "./steps/directExport.js"
import { sendEventAndApprove } from "./steps/event.js"
import { scheduleAndWatch } from "./steps/postList.js"
import { makeWorkspace } from "./steps/workspace.js"
import { shown } from "./support/outbox.js"
import { portFor, startNode, stopAll } from "./support/processes.js"

const began = Date.now()
const keep = process.argv.includes("--keep")
const outDir = path.resolve(process.env["OUT_DIR"] ?? "out")
const dataDir = path.join(outDir, "data")
const port = Number(process.env["PORT"] ?? (await portFor(8080)))
const receiverPort = Number(process.env["RECEIVER_PORT"] ?? (await portFor(8787)))

let step = 0
const seconds = () => `${Math.round((Date.now() - began) / 1000)} s`
const heading = (title: string) => console.log(`\n${++step}. ${title} (at ${seconds()})`)
const say = (line: string) => console.log(`   ${line}`)

/** Ctrl-C ends a `--keep` run where it waits; any other run it interrupts (what was started is stopped all the same). */
let endKeeping: (() => void) | undefined
const interrupted = new Promise<never>((_, reject) =>
  process.once("SIGINT", () => endKeeping !== undefined ? endKeeping() : reject(new Error("interrupted by Ctrl-C")))
)

const tour = async () => {
  // A fresh data folder each run, so the example's database starts empty; it stays after the run to be looked at.
  fs.rmSync(dataDir, { recursive: true, force: true })
  fs.mkdirSync(dataDir, { recursive: true })

  heading("A node on the embedded database")
  const settings = { port, dataDir, logFile: path.join(outDir, "node.log") }
  const node = await startNode(settings)
  say(`${node.url} answers /health; its data is in ${shown(dataDir)}, its log in ${shown(settings.logFile)}`)

  heading("A workspace, its key, a brand, the webhook and the receiver")
  const receiverAt = { port: receiverPort, logFile: path.join(outDir, "receiver.log") }
  const workspace = await makeWorkspace({ ...settings, url: node.url }, receiverAt, say)

  heading("A stream and two channels")
  const channels = await makeChannels(workspace.api, say)

  heading("An event, drawn, approved and handed over")
  const handover = await sendEventAndApprove(workspace.api, channels, workspace.receiver, dataDir, say)

  heading("A post list's post, firing on its own")
  await scheduleAndWatch(workspace.api, channels, workspace.receiver, say)

  heading("A direct export")
  await exportClip(workspace.api, workspace.brandId, outDir, say)

  heading("The console")
  const link = await signInLink(node.url, dataDir, workspace.ownerEmail)
  say(`${node.url}/console, where ${workspace.ownerEmail} approves posts and watches publishing`)
  say(`sign-in link for ${workspace.ownerEmail} (once, within 15 minutes, while the node runs):`)
  say(link)

  console.log(`\nDone in ${seconds()}. What arrived:`)
  say(`webhook  ${handover.webhookLine}`)
  say(`email    ${shown(handover.emlFile)}`)
  say(`video    ${shown(path.join(outDir, "clip.mp4"))}`)
  if (keep) {
    console.log("\nThe node and the receiver keep running: press Ctrl-C to stop them.")
    return new Promise<void>((resolve) => (endKeeping = resolve))
  }
  console.log(
    `\nTo look around later: DATA_DIR=${shown(dataDir)} PORT=${port} npm start, then open the link above ` +
      `(or ask for a new one at ${node.url}/console/sign-in).`
  )
}

const touring = tour()
// Once Ctrl-C interrupted it, the tour's own failure (a call to the stopped node) tells nothing more.
touring.catch(() => undefined)
try {
  await Promise.race([touring, interrupted])
} catch (error) {
  console.error(`\nThe example stopped: ${error instanceof Error ? error.message : String(error)}`)
  console.error(`The node's log is ${shown(path.join(outDir, "node.log"))}.`)
  process.exitCode = 1
} finally {
  await stopAll()
}
console.log(`Stopped the receiver and the node (${seconds()} in all).`)
// After a failure or Ctrl-C, a tour still waiting on a call has nothing left to do.
if (process.exitCode === 1) process.exit()
