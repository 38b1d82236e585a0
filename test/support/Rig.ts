import * as fs from "node:fs"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll } from "vitest"
import { launchBrowser } from "./Browser.js"
import { admin, client, workspaceWithKey } from "./Client.js"
import { createTestDatabase, type TestDatabase } from "./Database.js"
import { type NodeOptions, startNode, type TestNode } from "./Node.js"
import { type Answer, type Receiver, startReceiver } from "./Receiver.js"
import { type SmtpSink, startSmtpSink } from "./SmtpSink.js"

/** The workspace a rig makes once its node is up: `true` is one with a key of every scope. */
export interface RigWorkspace {
  readonly scopes?: ReadonlyArray<string>
  readonly name?: string
  readonly ownerEmail?: string
}

export interface RigOptions {
  /** Names the file's database (`cw_<label>_…`), which shows whose it is when one is left behind. */
  readonly label: string
  /**
   * The node's environment; a function when it names something started in an earlier `beforeAll` (a receiver), or
   * when the nodes of `useNodes` differ (it is given the node's index).
   */
  readonly env?: Record<string, string> | ((index: number) => Record<string, string>)
  /** Default true; false for a file that needs only the database (or starts its own nodes on it). */
  readonly node?: boolean
  readonly workspace?: true | RigWorkspace
  /** Runs on the fresh database before the node starts (tables of its own, rows to migrate). */
  readonly prepare?: (db: TestDatabase) => Promise<unknown>
  readonly compiled?: boolean
  readonly startTimeoutMs?: number
  /** The node's DATA_DIR (kept after the file); a function when an earlier `beforeAll` makes it. */
  readonly dataDir?: string | (() => string)
  /** The PostgreSQL server to make the database on, when not the machine's (a file's own, to stop and start). */
  readonly adminUrl?: () => string
  /** Starts an SMTP sink before the node (`rig.sink`) and gives the node its `SMTP_URL`; the console signs in by it. */
  readonly smtp?: boolean
  /** Starts a webhook receiver before the node (`rig.receiver`), answering as given (200 by default). */
  readonly receiver?: true | Answer
  /** Launches Chromium while the node starts (`rig.browser`); it is closed first after the file. */
  readonly browser?: boolean
}

export type Api = ReturnType<typeof client>

export interface RigWorkspaceKey {
  readonly accountId: string
  readonly accountName: string
  readonly keyId: string
  readonly apiKey: string
  readonly scopes: Array<string>
  readonly api: Api
}

export interface Rig {
  /** The file's database; its `url` is read once `beforeAll` has run. */
  readonly db: TestDatabase
  /** The file's node, seen through: every field is the running node's at the time it is read. */
  readonly node: TestNode
  readonly url: string
  /** The rig's workspace (option `workspace`) and its key, as `workspaceWithKey` answers them, seen through. */
  readonly workspace: RigWorkspaceKey
  /** A client with the workspace's key, and one with the admin token. */
  readonly api: Api
  readonly admin: ReturnType<typeof admin>
  /** The SMTP sink (option `smtp`), the webhook receiver (option `receiver`) and Chromium (option `browser`). */
  readonly sink: SmtpSink
  readonly receiver: Receiver
  readonly browser: Browser
  /** Stops the node now (the database stays until the file ends); a file restarting its node calls `restart`. */
  readonly stop: () => Promise<void>
  /** Stops the node if it runs and starts a new one on the same database and DATA_DIR, with `env` added. */
  readonly restart: (env?: Record<string, string>) => Promise<void>
}

interface Started {
  db?: TestDatabase
  nodes: Array<TestNode>
  workspace?: RigWorkspaceKey
  sink?: SmtpSink
  receiver?: Receiver
  browser?: Browser
}

const missing = (what: string): never => {
  throw new Error(`the rig has no ${what}: read it inside a test or hook, after the rig's beforeAll (and ask for it)`)
}

/** An object whose every field is read from `current()` when it is read: a stand-in before the thing exists. */
const seeThrough = <A extends object>(current: () => A): A =>
  new Proxy({} as A, {
    get: (_, field) => {
      const value = Reflect.get(current(), field)
      return typeof value === "function" ? value.bind(current()) : value
    },
    has: (_, field) => Reflect.has(current(), field)
  })

/**
 * The hooks every rig shares: the database, the sink, the receiver and the browser, then `count` nodes; all stopped,
 * closed and dropped after the file, in the reverse order.
 */
const useRig = (options: RigOptions, count: number) => {
  const started: Started = { nodes: [] }
  const env = (index: number) => (typeof options.env === "function" ? options.env(index) : options.env)

  const start = async (index: number, extra: Record<string, string> = {}) => {
    const db = started.db ?? missing("database")
    const dataDir = started.nodes[index]?.dataDir ??
      (typeof options.dataDir === "function" ? options.dataDir() : options.dataDir)
    const nodeOptions: NodeOptions = {
      databaseUrl: db.url,
      env: { ...(started.sink === undefined ? {} : { SMTP_URL: started.sink.url }), ...env(index), ...extra },
      ...(dataDir === undefined ? {} : { dataDir }),
      ...(options.compiled === undefined ? {} : { compiled: options.compiled }),
      ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs })
    }
    started.nodes[index] = await startNode(nodeOptions)
  }

  beforeAll(async () => {
    // Chromium starts while the node does.
    const launching = options.browser === true ? launchBrowser() : undefined
    // Awaited below, once the node is up: a launch that fails sooner is not an unhandled rejection meanwhile.
    launching?.catch(() => undefined)
    // A node's file starts on the migrated copy; one with `prepare` or no node gets the empty database it asked for.
    const migrated = options.node !== false && options.prepare === undefined
    started.db = await createTestDatabase(options.label, options.adminUrl?.(), { migrated })
    if (options.smtp === true) started.sink = await startSmtpSink()
    if (options.receiver !== undefined) {
      started.receiver = await startReceiver(options.receiver === true ? undefined : options.receiver)
    }
    await options.prepare?.(started.db)
    if (options.node !== false) await Promise.all(Array.from({ length: count }, (_, index) => start(index)))
    if (launching !== undefined) started.browser = await launching
    if (options.workspace === undefined || options.node === false) return
    const shape = options.workspace === true ? {} : options.workspace
    started.workspace = await workspaceWithKey(started.nodes[0]!, shape.scopes ?? ["*"], shape.name, shape.ownerEmail)
  })

  afterAll(async () => {
    await started.browser?.close()
    await Promise.all(started.nodes.map((node) => node.stop()))
    await started.receiver?.stop()
    await started.sink?.stop()
    await started.db?.drop()
    // The nodes' temporary DATA_DIRs (rendered clips, the outbox), unless the file gave its own.
    if (options.dataDir === undefined) {
      for (const node of started.nodes) fs.rmSync(node.dataDir, { recursive: true, force: true })
    }
  })

  const nodeAt = (index: number) => seeThrough(() => started.nodes[index] ?? missing("node"))
  return { started, start, nodeAt }
}

/** The parts of a rig that do not depend on how many nodes it has. */
const parts = (started: Started, node: TestNode) => {
  const workspace = () => started.workspace ?? missing("workspace")
  return {
    db: seeThrough(() => started.db ?? missing("database")),
    workspace: seeThrough(workspace),
    api: seeThrough(() => workspace().api),
    admin: seeThrough(() => admin(node)),
    sink: seeThrough(() => started.sink ?? missing("SMTP sink (option smtp)")),
    receiver: seeThrough(() => started.receiver ?? missing("receiver (option receiver)")),
    browser: seeThrough(() => started.browser ?? missing("browser (option browser)"))
  }
}

/**
 * The file's test rig, in place of a `beforeAll` and `afterAll` of its own: a fresh database, a node on it (with
 * `env`), optionally a workspace and a key, an SMTP sink, a webhook receiver and Chromium; stopped and dropped after
 * the file. Call it at the top of a file (or of a `describe`); hooks registered before it run before it starts, and
 * (hooks run as a stack) their `afterAll` after it stops.
 */
export const useNode = (options: RigOptions): Rig => {
  const { nodeAt, start, started } = useRig(options, 1)
  const node = nodeAt(0)
  return {
    ...parts(started, node),
    node,
    get url() {
      return node.url
    },
    stop: async () => {
      await started.nodes[0]?.stop()
    },
    restart: async (extra) => {
      await started.nodes[0]?.stop()
      await start(0, extra)
    }
  }
}

/**
 * A rig of `count` nodes over one database, started together (`env` may differ by the node's index): what a file of
 * several nodes needs. The workspace, if asked for, is made through the first.
 */
export const useNodes = <const Count extends number>(
  options: Omit<RigOptions, "node" | "dataDir"> & { readonly count: Count }
): Omit<Rig, "node" | "url" | "stop" | "restart"> & { readonly nodes: Nodes<Count> } => {
  const { nodeAt, started } = useRig(options, options.count)
  const nodes = Array.from({ length: options.count }, (_, index) => nodeAt(index))
  return { ...parts(started, nodes[0]!), nodes: nodes as Nodes<Count> }
}

/** `Count` nodes as a tuple, so that `const { nodes: [a, b] } = useNodes({ count: 2, … })` names two nodes. */
type Nodes<Count extends number, Acc extends Array<TestNode> = []> = Acc["length"] extends Count ? Acc
  : Nodes<Count, [...Acc, TestNode]>

/** A fresh database for the file and nothing else: `useNode` without the node. */
export const useDatabase = (label: string, prepare?: (db: TestDatabase) => Promise<unknown>): TestDatabase =>
  useNode({ label, node: false, ...(prepare === undefined ? {} : { prepare }) }).db
