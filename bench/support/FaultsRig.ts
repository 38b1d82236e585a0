import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { type S3Harness, startS3 } from "../../test/storage/S3Harness.js"
import { childrenOf, killNow, startCluster } from "../../test/support/Cluster.js"
import type { TestDatabase } from "../../test/support/Database.js"
import type { TestNode } from "../../test/support/Node.js"
import { type SmtpSink, startSmtpSink } from "../../test/support/SmtpSink.js"
import { type DataVolume, mountDataVolume } from "./DataVolume.js"
import { type FaultsReceiver, startFaultsReceiver } from "./FaultsReceiver.js"
import { type PrivatePostgres, startPrivatePostgres } from "./PrivatePostgres.js"

/**
 * What the matrix runs against: three nodes on one database of a PostgreSQL server of the matrix's own (so that it
 * can be restarted), sharing DATA_DIR on a volume of its own (a shared volume in production; one that can be filled),
 * the loopback webhook receiver and the SMTP sink. A node killed by a fault is replaced by a new one.
 */
export interface FaultsRig {
  readonly pg: PrivatePostgres
  readonly db: TestDatabase
  readonly data: DataVolume
  readonly nodes: ReadonlyArray<TestNode>
  readonly receiver: FaultsReceiver
  readonly sink: SmtpSink
  /** The S3-compatible store (s3rver on loopback) the nodes keep their files in, for profiles that ask for one. */
  readonly store: S3Harness | undefined
  /** The signing clock of `compressClock`: `rate` times as fast as real time from `origin` (TEST_CLOCK_RATE). */
  readonly clock: { readonly origin: number; readonly rate: number; readonly now: () => number }
  /**
   * Replaces every node by one signing on the compressed clock (the nodes start on real time: a call signed more
   * than 2.5 s of real time before it is verified would be refused at ×120, and a loaded machine makes many such).
   */
  readonly compressClock: () => Promise<void>
  /** Replaces a dead node with a fresh one on the same database and DATA_DIR. */
  readonly replace: (dead: TestNode) => Promise<TestNode>
  /** Kills a node with SIGKILL, and at once its drawer and ffmpeg children (they outlive their parent otherwise). */
  readonly kill: (node: TestNode) => Promise<void>
  readonly stop: () => Promise<void>
}

export const startFaultsRig = async (
  retrySchedule: string,
  signedClockRate: number,
  objectStore = false
): Promise<FaultsRig> => {
  const pg = await startPrivatePostgres()
  const store = objectStore ? await startS3("faults-store") : undefined
  const data = mountDataVolume(fs.mkdtempSync(path.join(os.tmpdir(), "clipwright-faults-")))
  let nodes: ReadonlyArray<TestNode> = []
  const origin = Date.now()
  const clock = { origin, rate: signedClockRate, now: () => origin + (Date.now() - origin) * signedClockRate }
  const receiver = await startFaultsReceiver(() => nodes.map((n) => n.process.pid!), Date.now)
  const sink = await startSmtpSink()
  // The cluster starts every node (replacements too) with this very object: compressClock adds the clock to it.
  const env: Record<string, string> = {
    ALLOW_PRIVATE_URLS: "true",
    DELIVERY_RETRY_SCHEDULE: retrySchedule,
    SMTP_URL: sink.url,
    ...store?.env("faults")
  }
  const cluster = await startCluster("faults", { nodes: 3, adminUrl: pg.adminUrl, dataDir: data.path, env })
  nodes = cluster.nodes
  return {
    pg,
    db: cluster.db,
    data,
    nodes,
    receiver,
    sink,
    store,
    clock,
    replace: cluster.replace,
    compressClock: async () => {
      env["TEST_CLOCK_RATE"] = String(signedClockRate)
      env["TEST_CLOCK_ORIGIN"] = String(origin)
      // Calls of the nodes on real time still in flight verify at it; the compressed ones run hours ahead of it.
      receiver.alsoVerifyAt(clock.now)
      await Promise.all([...nodes].map(async (old) => {
        await cluster.replace(old)
        await old.stop()
      }))
    },
    kill: async (node) => {
      const children = childrenOf(node.process.pid!)
      await cluster.kill(node)
      children.forEach(killNow)
    },
    stop: async () => {
      await cluster.stop()
      await receiver.stop()
      await sink.stop()
      await pg.stop()
      await store?.close()
      data.remove()
    }
  }
}
