import { ShardingConfig, SqlMessageStorage, SqlRunnerStorage } from "@effect/cluster"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { shardingTuning } from "../../cluster/Cluster.js"
import { AppConfig } from "../../src/Config.js"
import { DatabaseLive } from "../../src/sql/Database.js"
import { defaultAdminUrl, query, TEMPLATE_ENV } from "./Database.js"
import { testSettings } from "./ServiceLayer.js"

/** Every migration and the cluster's own tables, as a node's start makes them. */
const migrate = (url: string, dataDir: string) =>
  Effect.runPromise(Effect.scoped(Layer.build(
    Layer.mergeAll(SqlMessageStorage.layer, SqlRunnerStorage.layer).pipe(
      Layer.provide(ShardingConfig.layer(shardingTuning)),
      Layer.provideMerge(DatabaseLive),
      Layer.provide(AppConfig.make(testSettings(url, dataDir)))
    )
  )))

/** No run lasts this long: a template older than it was left by a run that was killed before its teardown. */
const ABANDONED_MS = 6 * 3_600_000

const admin = (text: string) => query(defaultAdminUrl, text)

const dropTemplate = async (name: string) => {
  await admin(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`)
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
}

const dropAbandoned = async () => {
  const rows = await query<{ datname: string }>(
    defaultAdminUrl,
    "SELECT datname FROM pg_database WHERE datname LIKE 'cw\\_template\\_%'"
  )
  for (const { datname } of rows) {
    const madeAt = parseInt(datname.split("_")[2] ?? "", 36)
    if (Date.now() - madeAt > ABANDONED_MS) await dropTemplate(datname)
  }
}

/**
 * One migrated database per run, which each file's database is copied from (`CREATE DATABASE … TEMPLATE`): on a
 * loaded 2-core machine a node took ~8 s to start on an empty database and ~5.5 s on a migrated one, and the suite
 * starts over a hundred on fresh databases. Named by run (several runs share the server), refusing connections so
 * that copies never meet a session on it. Answers the teardown that drops it.
 */
export const makeTemplate = async (): Promise<() => Promise<void>> => {
  const name = `cw_template_${Date.now().toString(36)}_${process.pid}`
  await dropAbandoned()
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(defaultAdminUrl)
  url.pathname = `/${name}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-template-"))
  try {
    await migrate(url.toString(), dataDir)
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  await admin(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`)
  process.env[TEMPLATE_ENV] = name
  return () => dropTemplate(name)
}
