import { NodeContext } from "@effect/platform-node"
import { Migrator, SqlClient } from "@effect/sql"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Effect, Layer, Option, String as Str } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { migrations } from "../../migrations/index.js"
import { AppConfig } from "../Config.js"
import { ConfigChanges } from "./ConfigChanges.js"
import { templateDir } from "./PgliteTemplate.js"
import { openPool } from "./PgPool.js"

const transforms = {
  transformQueryNames: Str.camelToSnake,
  transformResultNames: Str.snakeToCamel
}

/** Opens the PGlite database in `dir`, creating it when absent. */
const embeddedDatabase = (dir: string) =>
  Effect.gen(function*() {
    const open = Effect.promise(() => PGlite.create({ dataDir: dir }))
    // Present from before creation until the database is complete, so a start stopped halfway makes it again.
    const creating = `${dir}.creating`
    if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0 && !fs.existsSync(creating)) return yield* open
    const empty = () => {
      fs.rmSync(dir, { recursive: true, force: true })
      fs.mkdirSync(dir, { recursive: true })
    }
    fs.mkdirSync(path.dirname(dir), { recursive: true })
    fs.writeFileSync(creating, "")
    empty()
    // initdb is 6–12 s of WASM work, too slow for a first start; copying the install-time template takes under 1 s.
    const fromTemplate = yield* Effect.tryPromise(async () => {
      const template = templateDir()
      if (template === undefined || !fs.existsSync(template)) return undefined
      fs.cpSync(template, dir, { recursive: true, mode: fs.constants.COPYFILE_FICLONE })
      return await PGlite.create({ dataDir: dir })
    }).pipe(
      Effect.catchAll((error) =>
        Effect.logWarning("PGlite template unusable; creating the embedded database by initdb").pipe(
          Effect.annotateLogs("error", String(error.error)),
          Effect.as(undefined)
        )
      )
    )
    const db = fromTemplate ?? (yield* Effect.sync(empty).pipe(Effect.zipRight(open)))
    fs.rmSync(creating)
    return db
  })

/** PGlite in DATA_DIR behind a loopback socket, so the same pg client and SQL serve the embedded default. */
const embeddedUrl = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const db = yield* embeddedDatabase(path.join(dataDir, "pg"))
      // One connection only: PGlite is one backend session, so more interleave protocol messages.
      const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 1 })
      yield* Effect.promise(() => server.start())
      return { db, server, url: `postgres://postgres@${server.getServerConn()}/postgres` }
    }),
    ({ db, server }) => Effect.promise(() => server.stop().then(() => db.close()))
  )

const clientLayer = Layer.unwrapScoped(
  Effect.gen(function*() {
    const config = yield* AppConfig
    if (Option.isSome(config.databaseUrl)) {
      return PgClient.layerFromPool({ acquire: openPool(config.databaseUrl.value, 10), ...transforms })
    }
    const embedded = yield* embeddedUrl(config.dataDir)
    return PgClient.layerFromPool({ acquire: openPool(embedded.url, 1), ...transforms })
  })
)

const STARTUP_LOCK = 4_231_977

/**
 * Runs schema work while holding a session advisory lock, so nodes starting together on a fresh database do not
 * race on `CREATE TABLE IF NOT EXISTS` (PostgreSQL answers such a race with a duplicate `pg_type` key). The embedded
 * default has one connection and one node, so it needs no lock.
 */
export const withStartupLock = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    if (Option.isNone(config.databaseUrl)) return yield* effect
    const sql = yield* SqlClient.SqlClient
    return yield* Effect.scoped(Effect.gen(function*() {
      const connection = yield* sql.reserve
      yield* Effect.acquireRelease(
        connection.executeRaw(`SELECT pg_advisory_lock(${STARTUP_LOCK})`, []),
        () => Effect.ignore(connection.executeRaw(`SELECT pg_advisory_unlock(${STARTUP_LOCK})`, []))
      )
      return yield* effect
    }))
  })

const migrate = PgMigrator.run({ loader: Migrator.fromRecord(migrations) }).pipe(Effect.provide(NodeContext.layer))

const migratorLayer = Layer.effectDiscard(withStartupLock(migrate))

/** The database client with every migration applied; safe when several nodes start at once. */
export const DatabaseLive = Layer.merge(migratorLayer, ConfigChanges.layer).pipe(Layer.provideMerge(clientLayer))
