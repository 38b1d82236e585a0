import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Logger } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { openPool } from "../../src/sql/PgPool.js"
import { query } from "../support/Database.js"
import { useDatabase } from "../support/Rig.js"

const db = useDatabase("pool_guard")

beforeAll(async () => {
  await query(db.url, "CREATE TABLE notes (id int PRIMARY KEY)")
})

describe("the node's connection pool", () => {
  // One connection, so the statement after the stray transaction is given the very connection it was left open on.
  it("never runs a statement inside a transaction an earlier user left open: it is rolled back first, and logged", async () => {
    const logged: Array<string> = []
    const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => logged.push(String(message))))
    await Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // A transaction begun and never ended, its connection handed back: what a failed COMMIT on a live connection leaves.
      yield* Effect.scoped(Effect.gen(function*() {
        const connection = yield* sql.reserve
        yield* connection.executeRaw("BEGIN", [])
        yield* connection.executeRaw("INSERT INTO notes (id) VALUES (1)", [])
      }))
      yield* sql`INSERT INTO notes (id) VALUES (2)`
    }).pipe(
      Effect.provide(PgClient.layerFromPool({ acquire: openPool(db.url, 1) })),
      Effect.provide(logger),
      Effect.runPromise
    )

    // Another session sees the statement made after the stray transaction (committed on its own), not the stray one.
    expect(await query(db.url, "SELECT id FROM notes ORDER BY id")).toEqual([{ id: 2 }])
    expect(
      await query(
        db.url,
        "SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'notes'"
      )
    )
      .toEqual([{ n: 0 }])
    expect(logged).toContain("A pooled connection came back inside a transaction; rolled back")
  })
})
