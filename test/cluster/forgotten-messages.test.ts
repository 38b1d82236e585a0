import { beforeAll, describe, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { marketStreamWithChannel, sendMarketEvent } from "../support/Jobs.js"
import { useNode } from "../support/Rig.js"
import { eventually } from "../support/Until.js"

// A message the cluster library read and then dropped on the way to its entity is read again only ten minutes later,
// and every later request under its primary key waits on it (cluster/ForgottenMessages.ts). The drop is made here by
// a trigger: the first reservation a job asks of the workspace's allowance is stored as if a read loop had just read
// it, which is what the library leaves behind when the hand-off to the entity fails.

const scopes = ["ingest:write", "streams:write", "channels:write", "brands:write", "templates:read"]

const dropFirstReserve = (url: string) =>
  query(
    url,
    `
    CREATE TABLE dropped_once (message_id bigint PRIMARY KEY);
    CREATE FUNCTION drop_first_reserve() RETURNS trigger AS $$
    BEGIN
      IF NEW.entity_type = 'WorkspaceAllowance' AND NEW.tag = 'Reserve' AND NOT EXISTS (SELECT 1 FROM dropped_once) THEN
        INSERT INTO dropped_once VALUES (NEW.id);
        NEW.last_read := now();
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql;
    CREATE TRIGGER drop_first_reserve BEFORE INSERT ON cluster_messages
      FOR EACH ROW EXECUTE FUNCTION drop_first_reserve();`
  )

/** The job of `ingestEventId` once it has left the rendering stages, with its render's state. */
const pastItsRender = (ingestEventId: string) =>
  eventually("the job past its render", async () => {
    const [row] = await query<{ status: string; render_state: string | null }>(
      db.url,
      `SELECT j.status, r.state AS render_state FROM jobs j LEFT JOIN render_jobs r ON r.id = j.render_job_id
        WHERE j.ingest_event_id = $1`,
      [ingestEventId]
    )
    return row !== undefined && !["ACCEPTED", "AWAITING_RENDERING"].includes(row.status) ? row : undefined
  }, 90_000)

const { db, node } = useNode({ label: "forgotten_messages" })

beforeAll(async () => {
  await dropFirstReserve(db.url)
})

describe("messages the cluster read and dropped", () => {
  it("are read again within a minute, and the job waiting on one goes on", async () => {
    const { api } = await workspaceWithKey(node, scopes, "Dropped reserve")
    const ingestEventId = await sendMarketEvent(api, await marketStreamWithChannel(api))

    const [dropped] = await eventually("the reservation dropped", async () => {
      const rows = await query<{ message_id: string }>(db.url, "SELECT message_id::text FROM dropped_once")
      return rows.length > 0 ? rows : undefined
    }, 30_000)
    const job = await pastItsRender(ingestEventId)
    // Drawn and on its way to hand-over (to nobody: the channel has no webhook or email).
    expect(job.render_state).toBe("COMPLETED")
    expect(["SCHEDULED", "PUBLISHING", "POST_FAILED"]).toContain(job.status)
    // Answered once it was read again, well before the library's ten minutes.
    const [message] = await query<{ processed: boolean }>(
      db.url,
      "SELECT processed FROM cluster_messages WHERE id = $1::bigint",
      [dropped!.message_id]
    )
    expect(message).toEqual({ processed: true })
  }, 150_000)
})
