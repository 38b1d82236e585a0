import { describe, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"

const { db, node } = useNode({ label: "storage_upkeep" })

const shardList = Array.from({ length: 300 }, (_, i) => `'default:${i + 1}'`).join(",")

/** The storage read loop's question (@effect/cluster's SqlMessageStorage, PostgreSQL dialect), asked of every shard. */
const readLoopQuery = `
  SELECT m.* FROM cluster_messages m
  WHERE m.shard_id IN (${shardList})
  AND NOT EXISTS (SELECT 1 FROM cluster_replies WHERE request_id = m.request_id AND (kind = 0 OR acked = FALSE))
  AND m.processed = FALSE
  AND (m.last_read IS NULL OR m.last_read < NOW() - INTERVAL '10 minutes')
  AND (m.deliver_at IS NULL OR m.deliver_at <= ${Date.now()})
  FOR UPDATE`

describe("cluster storage upkeep", () => {
  it("has exactly the message columns the group-committed insert writes (a library upgrade that adds one fails here)", async () => {
    // cluster/GroupCommitStorage.ts writes a request's row itself; these are @effect/cluster 0.60.2's columns.
    const columns = await query<{ column_name: string }>(
      db.url,
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'cluster_messages' ORDER BY column_name"
    )
    expect(columns.map((c) => c.column_name)).toEqual([
      "deliver_at",
      "entity_id",
      "entity_type",
      "headers",
      "id",
      "kind",
      "last_read",
      "last_reply_id",
      "message_id",
      "payload",
      "processed",
      "reply_id",
      "request_id",
      "rowid",
      "sampled",
      "shard_id",
      "span_id",
      "tag",
      "trace_id"
    ])
  })

  it("keeps the read loop on the unprocessed-message index as processed messages pile up", async () => {
    const { api } = await workspaceWithKey(node, ["streams:write"])
    const ids = Array.from({ length: 10 }, (_, i) => `st_00000000f${String(i).padStart(3, "0")}`)
    for (const id of ids) {
      expect((await api.post("/v1/streams", { id, name: id, templateId: "tpl_3a7c91e04b5d" })).status).toBe(201)
    }
    let next = 0
    const worker = async () => {
      for (let n = next++; n < 1300; n = next++) {
        const answer = await api.post(`/v1/streams/${ids[n % ids.length]}/update`, { name: `update ${n}` })
        expect(answer.status).toBe(200)
      }
    }
    await Promise.all(Array.from({ length: 20 }, worker))

    // The node analyzes the tables itself once its inserts pass 1,024 (autovacuum may be off); 1,310 were sent.
    const deadline = Date.now() + 15_000
    let analyzed = false
    while (!analyzed && Date.now() < deadline) {
      const rows = await query<{ analyzed: boolean }>(
        db.url,
        "SELECT last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables WHERE relname = 'cluster_messages'"
      )
      analyzed = rows[0]?.analyzed === true
      if (!analyzed) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(analyzed).toBe(true)

    const plan = (await query<{ "QUERY PLAN": string }>(db.url, `EXPLAIN ${readLoopQuery}`)).map((row) =>
      row["QUERY PLAN"]
    ).join("\n")
    expect(plan).toContain("cluster_messages_unprocessed_idx")
    expect(plan).not.toMatch(/Seq Scan on cluster_messages/)
  }, 120_000)
})
