import { childrenOf, isDrawing } from "../../test/support/Cluster.js"
import { query } from "../../test/support/Database.js"
import type { TestNode } from "../../test/support/Node.js"
import { sleep } from "./Common.js"
import type { FaultsRig } from "./FaultsRig.js"

/**
 * One fault: `inject` breaks something and answers once the break is over (the node dead, the receiver back) with a
 * word on what it did; the node it killed, if any, is replaced after recovery.
 */
export interface Fault {
  readonly name: string
  readonly inject: (rig: FaultsRig, workspaceId: string) => Promise<{ note: string; killed?: TestNode }>
}

const until = async <A>(what: string, read: () => Promise<A | undefined>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await sleep(50)
  }
}

const renderingNow = async (rig: FaultsRig, workspaceId: string) =>
  (await query(
    rig.db.url,
    "SELECT 1 FROM render_jobs WHERE workspace_id = $1 AND state IN ('SUBMITTED', 'RENDERING')",
    [workspaceId]
  )).length > 0

/** A node drawing a render of the workspace (its render row RENDERING, its drawer or ffmpeg running). */
const nodeDrawing = (rig: FaultsRig, workspaceId: string) =>
  until("a node drawing a render", async () =>
    await renderingNow(rig, workspaceId)
      ? rig.nodes.find((n) => childrenOf(n.process.pid!).some(isDrawing))
      : undefined, 60_000)

const openRenders = async (rig: FaultsRig, workspaceId: string) =>
  (await query(
    rig.db.url,
    "SELECT id FROM render_jobs WHERE workspace_id = $1 AND state IN ('SUBMITTED', 'RENDERING', 'DOWNLOADING')",
    [workspaceId]
  )).length

/** SIGKILL of the node drawing a render. */
export const killMidRender: Fault = {
  name: "SIGKILL mid-render",
  inject: async (rig, workspaceId) => {
    const victim = await nodeDrawing(rig, workspaceId)
    await rig.kill(victim)
    return { note: `${await openRenders(rig, workspaceId)} render(s) open at the kill`, killed: victim }
  }
}

/**
 * SIGSTOP of a node drawing a render, and of its drawer and ffmpeg (a paused VM: it holds its sockets and looks alive
 * but answers nothing), for `seconds`; then SIGCONT. It is not replaced: it must notice it lost its shards and carry on.
 */
export const stopNode = (seconds: number): Fault => ({
  name: `SIGSTOP ${seconds} s`,
  inject: async (rig, workspaceId) => {
    const victim = await nodeDrawing(rig, workspaceId)
    const tree = [victim.process.pid!, ...childrenOf(victim.process.pid!)]
    const signal = (name: NodeJS.Signals) =>
      tree.forEach((pid) => {
        try {
          process.kill(pid, name)
        } catch {
          // a child that ended meanwhile
        }
      })
    signal("SIGSTOP")
    const open = await openRenders(rig, workspaceId)
    await sleep(seconds * 1000)
    signal("SIGCONT")
    return { note: `stopped with ${tree.length - 1} drawing child(ren); ${open} render(s) open` }
  }
})

/** SIGKILL of the node sending the most webhook calls the receiver holds open. */
export const killMidDelivery: Fault = {
  name: "SIGKILL mid-delivery",
  inject: async (rig) => {
    rig.receiver.hold()
    const held = await until("held webhook calls with a known sender", async () => {
      const calls = rig.receiver.held().filter((c) => c.senderPid !== undefined)
      return calls.length >= 2 ? calls : undefined
    }, 60_000)
    const bySender = new Map<number, number>()
    for (const c of held) bySender.set(c.senderPid!, (bySender.get(c.senderPid!) ?? 0) + 1)
    const [victimPid, cut] = [...bySender].sort((a, b) => b[1] - a[1])[0]!
    const victim = rig.nodes.find((n) => n.process.pid === victimPid)!
    await rig.kill(victim)
    rig.receiver.release()
    return { note: `${cut} of ${held.length} held calls on the killed node`, killed: victim }
  }
}

/** The receiver stops listening for `seconds`, then comes back on the same address. */
export const receiverDown = (seconds: number): Fault => ({
  name: `receiver down ${seconds} s`,
  inject: async (rig) => {
    await rig.receiver.down()
    const before = rig.receiver.calls.length
    await sleep(seconds * 1000)
    await rig.receiver.up()
    return { note: `down ${seconds} s; ${rig.receiver.calls.length - before} calls while down (expected 0)` }
  }
})

/**
 * The receiver down for `minutes` of the nodes' signing clock (compressed: `minutes` × 60 / rate seconds of real
 * time), its retries crossing the 5-minute tolerance of the receiver that verifies them. The nodes are first
 * replaced by ones on the compressed clock, which the rows after this one keep: it is the last of a profile.
 */
export const receiverDownSigned = (minutes: number): Fault => ({
  name: `receiver down ${minutes} minutes of signed time`,
  inject: async (rig) => {
    const seconds = (minutes * 60) / rig.clock.rate
    await rig.compressClock()
    await rig.receiver.down()
    await sleep(seconds * 1000)
    await rig.receiver.up()
    return { note: `down ${seconds} s of real time (signing clock ×${rig.clock.rate})` }
  }
})

/** The SMTP server answers every message 550 for `seconds`, then takes them again. */
export const smtpRefusing = (seconds: number): Fault => ({
  name: `SMTP refusing ${seconds} s`,
  inject: async (rig) => {
    const before = rig.sink.refusals()
    rig.sink.refuse(true)
    await sleep(seconds * 1000)
    rig.sink.refuse(false)
    return { note: `${rig.sink.refusals() - before} message(s) refused` }
  }
})

/** PostgreSQL stopped the hard way (`immediate`: no checkpoint, every connection cut), down `seconds`, started again. */
export const postgresRestart = (seconds: number): Fault => ({
  name: `PostgreSQL restart (${seconds} s down)`,
  inject: async (rig) => {
    const startedAt = Date.now()
    await rig.pg.restart("immediate", seconds * 1000)
    return { note: `down ${((Date.now() - startedAt) / 1000).toFixed(1)} s, crash recovery on start` }
  }
})

/** DATA_DIR's volume filled to the last byte while a render draws, for `seconds`, then emptied again. */
export const diskFull = (seconds: number): Fault => ({
  name: `DATA_DIR full ${seconds} s`,
  inject: async (rig, workspaceId) => {
    await until("a render drawing", async () => (await renderingNow(rig, workspaceId)) || undefined, 60_000)
    const filled = rig.data.fill()
    const open = await openRenders(rig, workspaceId)
    await sleep(seconds * 1000)
    rig.data.unfill()
    return { note: `${Math.round(filled / 2 ** 20)} MiB filler; ${open} render(s) open when it filled` }
  }
})

const nearlyDrawn = async (rig: FaultsRig, workspaceId: string) =>
  (await query(
    rig.db.url,
    "SELECT 1 FROM render_jobs WHERE workspace_id = $1 AND state = 'RENDERING' AND progress >= 0.8",
    [workspaceId]
  ))
    .length > 0

const storeWaits = (rig: FaultsRig) =>
  rig.nodes.reduce((n, node) => n + node.output().split("Waiting for the object store").length - 1, 0)

/**
 * The object store down for `seconds` (s3rver stopped, its connections cut), while a render draws: requests that
 * need a file answer 503 with a retry hint, renders and hand-overs wait and go on. Needs a profile with a store.
 */
export const storeDown = (seconds: number): Fault => ({
  name: `store down ${seconds} s`,
  inject: async (rig, workspaceId) => {
    const store = rig.store
    if (store === undefined) throw new Error("the store-down fault needs a profile with an object store")
    // A render nearly drawn, so that its upload falls in the outage (whose wait is what this row is about).
    await until("a render nearly drawn", async () => (await nearlyDrawn(rig, workspaceId)) || undefined, 60_000)
      .catch(() => until("a render drawing", async () => (await renderingNow(rig, workspaceId)) || undefined, 60_000))
    const open = await openRenders(rig, workspaceId)
    const waitsBefore = storeWaits(rig)
    await store.stop()
    await sleep(seconds * 1000)
    await store.start()
    return {
      note: `${open} render(s) open when the store went down; ` +
        `${storeWaits(rig) - waitsBefore} "Waiting for the object store" logged meanwhile`
    }
  }
})
