import { describe, expect, it } from "vitest"
import { migrations } from "../../migrations/index.js"
import { query } from "../support/Database.js"
import { startNode } from "../support/Node.js"
import { useDatabase } from "../support/Rig.js"

const db = useDatabase("migrations")

const applied = () =>
  query<{ migration_id: number; name: string }>(
    db.url,
    "SELECT migration_id, name FROM effect_sql_migrations ORDER BY 1"
  )

describe("migrations", () => {
  it(
    "apply on a fresh database, then again on a second start without change, also when nodes start together",
    async () => {
      const [first, second] = await Promise.all([
        startNode({ databaseUrl: db.url }),
        startNode({ databaseUrl: db.url })
      ])
      const expected = Object.keys(migrations).map((key) => key.replace(/^\d+_/, ""))
      expect((await applied()).map((m) => m.name)).toEqual(expected)
      const tables = await query<{ table_name: string }>(
        db.url,
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1"
      )
      expect(tables.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(["workspaces", "api_keys", "streams", "cluster_messages"])
      )
      await Promise.all([first.stop(), second.stop()])

      const again = await startNode({ databaseUrl: db.url })
      expect((await applied()).map((m) => m.name)).toEqual(expected)
      await again.stop()
      // Three node starts: beside the fault matrix on a loaded 2-core machine one start has taken over 20 s.
    },
    180_000
  )
})
