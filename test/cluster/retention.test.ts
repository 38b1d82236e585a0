import { MachineId, Snowflake } from "@effect/cluster"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { pruneProcessedMessages } from "../../cluster/MessageRetention.js"
import { query } from "../support/Database.js"
import { startNode } from "../support/Node.js"
import { useDatabase } from "../support/Rig.js"

const db = useDatabase("retention")

beforeAll(async () => {
  // A node creates the cluster's tables on start.
  const node = await startNode({ databaseUrl: db.url })
  await node.stop()
})

const idAt = (ageMs: number, sequence: number) =>
  Snowflake.make({ timestamp: Date.now() - ageMs, machineId: MachineId.make(1), sequence }).toString()

const insertMessage = (id: string, processed: boolean) =>
  query(
    db.url,
    `INSERT INTO cluster_messages (id, message_id, shard_id, entity_type, entity_id, kind, tag, payload, headers, processed, request_id)
     VALUES ($1, $2, 'default:1', 'Stream', 'st_000000000001', 0, 'Update', '{}', '{}', $3, $1)`,
    [id, `m-${id}`, processed]
  ).then(() =>
    query(db.url, "INSERT INTO cluster_replies (id, kind, request_id, payload) VALUES ($1, 0, $2, '{}')", [
      (BigInt(id) + 1n).toString(),
      id
    ])
  )

describe("message retention", () => {
  it("prunes processed messages older than the retention window, with their replies, and keeps the rest", async () => {
    const day = 24 * 3600 * 1000
    const oldProcessed = idAt(3 * day, 1)
    const oldPending = idAt(3 * day, 5)
    const recentProcessed = idAt(1000, 9)
    await insertMessage(oldProcessed, true)
    await insertMessage(oldPending, false)
    await insertMessage(recentProcessed, true)

    await Effect.runPromise(pruneProcessedMessages.pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(db.url) })),
      Effect.orDie
    ))

    const left = await query<{ id: string }>(
      db.url,
      "SELECT id::text FROM cluster_messages WHERE message_id LIKE 'm-%'"
    )
    expect(left.map((r) => r.id).sort()).toEqual([oldPending, recentProcessed].sort())
    const replies = await query<{ request_id: string }>(db.url, "SELECT request_id::text FROM cluster_replies")
    expect(replies.map((r) => r.request_id)).not.toContain(oldProcessed)
    expect(replies.map((r) => r.request_id)).toContain(recentProcessed)
    // The dead rows left behind are vacuumed away, whether or not autovacuum runs on this server.
    const vacuumed = await query<{ relname: string }>(
      db.url,
      "SELECT relname FROM pg_stat_user_tables WHERE relname IN ('cluster_messages', 'cluster_replies') AND last_vacuum IS NOT NULL ORDER BY relname"
    )
    expect(vacuumed.map((r) => r.relname)).toEqual(["cluster_messages", "cluster_replies"])
  })
})
