import { describe, expect, it } from "vitest"
import { until } from "../delivery/HandOverDesk.js"
import { query } from "../support/Database.js"
import { useNode } from "../support/Rig.js"
import { type Api, inSeconds, listOf, newList, packageBody, workspace } from "./QueueDesk.js"

const { db, node } = useNode({ label: "queues_client_gone" })

/**
 * The package's insert held 1.5 s inside PostgreSQL and deaf to the cancel a caller's interruption sends: what a
 * cancel that arrives after the row is written looks like (the fault matrix's frozen node met its clients' 10 s
 * timeouts this way). The row is written; whatever the handler does next must still happen.
 */
const slowInsert = `
  CREATE FUNCTION clipwright_test_slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    BEGIN
      PERFORM pg_sleep(1.5);
    EXCEPTION WHEN query_canceled THEN NULL;
    END;
    RETURN NEW;
  END $$;
  CREATE TRIGGER clipwright_test_slow_insert AFTER INSERT ON queue_packages
    FOR EACH ROW EXECUTE FUNCTION clipwright_test_slow_insert();`

const postThenHangUp = async (key: string, queueId: string, body: unknown) => {
  const gone = new AbortController()
  const sent = fetch(`${node.url}/v1/queues/${queueId}/packages`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: gone.signal
  })
  // Once the row is being written (the trigger holds it), the client goes away.
  const sleeping = "SELECT pid FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query ILIKE '%queue_packages%'"
  await until("the package's insert has started", () => query(db.url, sleeping), (rows) => rows.length > 0, 10_000)
  gone.abort()
  await expect(sent).rejects.toThrow()
}

describe("a client that hangs up while its post is being added", () => {
  it("leaves no half-added post: the post that was stored fires at its time", async () => {
    const ws = await workspace(node, "Hang-up")
    const api: Api = ws.api
    const list = await newList(api, "Hung up on")
    await query(db.url, slowInsert)
    try {
      await postThenHangUp(
        ws.apiKey,
        list.id,
        packageBody({ title: "Added as the client left", scheduledFor: inSeconds(4) })
      )
    } finally {
      // Only this post's insert is held; whatever the service writes after it goes at full speed.
      await query(db.url, "DROP TRIGGER clipwright_test_slow_insert ON queue_packages")
    }

    const stored = await until("the post is listed", () => listOf(api, list.id), (l) => (l?.posts ?? []).length === 1)
    const post = stored!.posts[0]
    expect(post.title).toBe("Added as the client left")
    const fired = await until(
      "the stored post fired",
      async () => (await listOf(api, list.id))?.posts?.[0],
      (p) => p?.state === "FIRED",
      20_000
    )
    expect(fired.ingestEventId).toEqual(expect.any(String))
    const events = await query(db.url, "SELECT count(*)::int AS n FROM ingest_events WHERE event_id = $1", [
      `package:${post.id}`
    ])
    expect(events).toEqual([{ n: 1 }])
  }, 60_000)
})
