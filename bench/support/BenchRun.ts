import * as os from "node:os"
import { createTestDatabase, type TestDatabase } from "../../test/support/Database.js"
import { startNode, type TestNode } from "../../test/support/Node.js"
import { cleanUpOnSignal, log, startPlain, stopChild, table } from "./Common.js"
import { type BenchDatabase, openDatabase } from "./PipelineSetup.js"

/** What was started, stopped last first and once only: Ctrl-C and the run's own end may both ask. */
export const stopsOnce = () => {
  const steps: Array<() => Promise<void>> = []
  let stopped: Promise<void> | undefined
  return {
    add: (step: () => Promise<void>) => void steps.unshift(step),
    run: () => (stopped ??= (async () => {
      for (const step of steps) await step()
    })())
  }
}
export type Stops = ReturnType<typeof stopsOnce>

/** A process a bench needs beside the node (its webhook receiver): started before the node, stopped after it. */
export interface Companion<C> {
  readonly name: string
  readonly start: () => Promise<C>
  readonly stop: (companion: C) => Promise<void>
}

export type PlainProcess = Awaited<ReturnType<typeof startPlain>>

/** A yardstick or receiver script as a companion process (see `startPlain`). */
export const plainCompanion = (name: string, script: string): Companion<PlainProcess> => ({
  name,
  start: () => startPlain(script, {}),
  stop: (plain) => stopChild(plain.process)
})

export interface BenchNodeOptions<C> {
  readonly env?: Record<string, string>
  /** Run the compiled node (`npm run build` first), as `npm start` does; the tests run the sources. */
  readonly compiled?: boolean
  readonly companion?: Companion<C>
  /** Called once the database exists, before anything else starts. */
  readonly onDatabase?: (databaseName: string) => void
}

export interface BenchNode<C = undefined> {
  readonly database: TestDatabase
  /** The fresh database's name: the CPU watchers find PostgreSQL's backends for the bench by it. */
  readonly databaseName: string
  readonly node: TestNode
  readonly db: BenchDatabase
  readonly companion: C
}

/** A fresh database, the companion if any, one node on the database and a pool to it; each is added to `stops`. */
export const startBenchNode = async <C = undefined>(
  label: string,
  options: BenchNodeOptions<C>,
  stops: Stops
): Promise<BenchNode<C>> => {
  const database = await createTestDatabase(label)
  stops.add(database.drop)
  const databaseName = new URL(database.url).pathname.slice(1)
  options.onDatabase?.(databaseName)
  const { companion: beside } = options
  // With no companion, C is undefined (its default), which is what `companion` then holds.
  const companion = (beside === undefined ? undefined : await beside.start()) as C
  if (beside !== undefined) stops.add(() => beside.stop(companion))
  const node = await startNode({
    databaseUrl: database.url,
    ...(options.compiled === undefined ? {} : { compiled: options.compiled }),
    ...(options.env === undefined ? {} : { env: options.env })
  })
  stops.add(node.stop)
  const db = await openDatabase(database.url)
  stops.add(db.close)
  return { database, databaseName, node, db, companion }
}

/**
 * Runs a bench on a compiled node over a fresh database: starts them, hands `run` what it needs, and cleans up once,
 * whether the run ends, fails, or is stopped by a signal.
 */
export const withBenchNode = async <A, C = undefined>(
  label: string,
  options: Pick<BenchNodeOptions<C>, "env" | "companion">,
  run: (bench: BenchNode<C> & { readonly loadBefore: number }) => Promise<A>
): Promise<A> => {
  const stops = stopsOnce()
  cleanUpOnSignal(stops.run)
  const loadBefore = os.loadavg()[0]!
  const starting = options.companion === undefined ? "the node" : `the ${options.companion.name} and the node`
  try {
    const bench = await startBenchNode(label, {
      ...options,
      compiled: true,
      onDatabase: (name) => log(`database ${name}; starting ${starting}`)
    }, stops)
    return await run({ ...bench, loadBefore })
  } finally {
    await stops.run()
  }
}

/** The targets as a table, each met or NOT MET. */
export const targetTable = (targets: ReadonlyArray<readonly [string, boolean]>, header = "target") =>
  table([header, ""], targets.map(([name, met]) => [name, met ? "met" : "NOT MET"]))

/** Prints the report's lines, then (with --json) the figures as one JSON document. */
export const printReport = (lines: ReadonlyArray<string>, json: object | undefined) => {
  process.stdout.write(lines.join("\n") + "\n")
  if (json !== undefined) process.stdout.write(JSON.stringify(json, null, 2) + "\n")
}
