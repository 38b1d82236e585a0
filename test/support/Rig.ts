import * as fs from "node:fs"
import { afterAll, beforeAll } from "vitest"
import { admin, client, workspaceWithKey } from "./Client.js"
import { createTestDatabase, type TestDatabase } from "./Database.js"
import { type NodeOptions, startNode, type TestNode } from "./Node.js"

/** The workspace a rig makes once its node is up: `true` is one with a key of every scope. */
export interface RigWorkspace {
  readonly scopes?: ReadonlyArray<string>
  readonly name?: string
  readonly ownerEmail?: string
}

export interface RigOptions {
  /** Names the file's database (`cw_<label>_…`), which shows whose it is when one is left behind. */
  readonly label: string
  /** The node's environment; a function when it names something started in an earlier `beforeAll` (a receiver). */
  readonly env?: Record<string, string> | (() => Record<string, string>)
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
  /** Stops the node now (the database stays until the file ends); a file restarting its node calls `restart`. */
  readonly stop: () => Promise<void>
  /** Stops the node if it runs and starts a new one on the same database and DATA_DIR, with `env` added. */
  readonly restart: (env?: Record<string, string>) => Promise<void>
}

interface Started {
  db?: TestDatabase
  node?: TestNode
  workspace?: RigWorkspaceKey
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
 * The file's test rig, in place of a `beforeAll` and `afterAll` of its own: a fresh database, a node on it (with
 * `env`), optionally a workspace and a key; stopped and dropped after the file. Call it at the top of a file (or of a
 * `describe`); hooks registered before it run before it starts, and (hooks run as a stack) their `afterAll` after
 * it stops.
 */
export const useNode = (options: RigOptions): Rig => {
  const started: Started = {}
  const env = () => (typeof options.env === "function" ? options.env() : options.env)

  const start = async (extra: Record<string, string> = {}) => {
    const db = started.db ?? missing("database")
    const dataDir = started.node?.dataDir ??
      (typeof options.dataDir === "function" ? options.dataDir() : options.dataDir)
    const nodeOptions: NodeOptions = {
      databaseUrl: db.url,
      env: { ...env(), ...extra },
      ...(dataDir === undefined ? {} : { dataDir }),
      ...(options.compiled === undefined ? {} : { compiled: options.compiled }),
      ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs })
    }
    started.node = await startNode(nodeOptions)
  }

  beforeAll(async () => {
    started.db = await createTestDatabase(options.label, options.adminUrl?.())
    await options.prepare?.(started.db)
    if (options.node === false) return
    await start()
    if (options.workspace === undefined) return
    const shape = options.workspace === true ? {} : options.workspace
    started.workspace = await workspaceWithKey(started.node!, shape.scopes ?? ["*"], shape.name, shape.ownerEmail)
  })

  afterAll(async () => {
    await started.node?.stop()
    await started.db?.drop()
    // The node's temporary DATA_DIR (rendered clips, the outbox), unless the file gave its own.
    if (started.node !== undefined && options.dataDir === undefined) {
      fs.rmSync(started.node.dataDir, { recursive: true, force: true })
    }
  })

  const node = seeThrough(() => started.node ?? missing("node"))
  const workspace = () => started.workspace ?? missing("workspace")
  return {
    db: seeThrough(() => started.db ?? missing("database")),
    node,
    get url() {
      return node.url
    },
    workspace: seeThrough(workspace),
    api: seeThrough(() => workspace().api),
    admin: seeThrough(() => admin(node)),
    stop: async () => {
      await started.node?.stop()
    },
    restart: async (extra) => {
      await started.node?.stop()
      await start(extra)
    }
  }
}

/** A fresh database for the file and nothing else: `useNode` without the node. */
export const useDatabase = (label: string, prepare?: (db: TestDatabase) => Promise<unknown>): TestDatabase =>
  useNode({ label, node: false, ...(prepare === undefined ? {} : { prepare }) }).db
