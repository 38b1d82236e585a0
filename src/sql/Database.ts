import { NodeContext } from "@effect/platform-node"
import { Migrator } from "@effect/sql"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Effect, Layer, Option, Redacted, String as Str } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { migrations } from "../../migrations/index.js"
import { AppConfig } from "../Config.js"

const transforms = {
  transformQueryNames: Str.camelToSnake,
  transformResultNames: Str.snakeToCamel
}

/** PGlite in DATA_DIR behind a loopback socket, so the same pg client and SQL serve the embedded default. */
const embeddedUrl = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const dir = path.join(dataDir, "pg")
      fs.mkdirSync(dir, { recursive: true })
      const db = await PGlite.create({ dataDir: dir })
      // One connection only: PGlite is one backend session, so more interleave protocol messages.
      const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 1 })
      await server.start()
      return { db, server, url: `postgres://postgres@${server.getServerConn()}/postgres` }
    }),
    ({ db, server }) => Effect.promise(() => server.stop().then(() => db.close()))
  )

const clientLayer = Layer.unwrapScoped(
  Effect.gen(function*() {
    const config = yield* AppConfig
    if (Option.isSome(config.databaseUrl)) {
      return PgClient.layer({ url: Redacted.make(config.databaseUrl.value), maxConnections: 10, ...transforms })
    }
    const embedded = yield* embeddedUrl(config.dataDir)
    return PgClient.layer({ url: Redacted.make(embedded.url), maxConnections: 1, ...transforms })
  })
)

const migratorLayer = PgMigrator.layer({ loader: Migrator.fromRecord(migrations) }).pipe(
  Layer.provide(NodeContext.layer)
)

/** The database client with every migration applied (the migrator locks its table, so nodes may start together). */
export const DatabaseLive = migratorLayer.pipe(Layer.provideMerge(clientLayer))
