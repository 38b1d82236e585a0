import { beforeAll, describe, expect, it } from "vitest"
import { workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { compactExample } from "../support/Exports.js"
import { marketStreamWithChannel } from "../support/Jobs.js"
import { useNode } from "../support/Rig.js"
import { newEventId } from "../support/Routes.js"
import { until } from "../support/Until.js"

beforeAll(async () => {
  // No render slots: every render stays PENDING, so the order the queue would serve them in holds still.
})

const { db, node } = useNode({ label: "pipeline_wait", env: () => ({ RENDER_SLOTS: "0" }) })

const scopes = ["streams:write", "channels:write", "brands:write", "ingest:write", "posts:read", "templates:read"]

/** A workspace with a market stream on one channel; `send` lands one event with its own headline, answers its job. */
const publisher = async (name: string) => {
  const ws = await workspaceWithKey(node, scopes, name)
  const streamId = await marketStreamWithChannel(ws.api)
  const example = await compactExample(ws.api)
  const send = async (headline: string) => {
    const data = { ...example, clipData: { ...(example["clipData"] as object), headline } }
    const sent = await ws.api.post("/v1/stream", {
      streamId,
      eventId: newEventId(),
      occurredAt: new Date().toISOString(),
      data
    })
    expect(sent.status, sent.text).toBe(202)
    return sent.body.matched[0].postGroupId as string
  }
  return { ...ws, send }
}

describe("the pipeline says why a job's render waits", () => {
  it("renderPosition counts the fair order, renderWait names whose renders are ahead", async () => {
    const x = await publisher("Busy")
    const w = await publisher("Quiet")
    const first = await x.send("First of X")
    const second = await x.send("Second of X")
    const ofW = await w.send("Only one of W")
    await until(
      "three renders queued",
      async () =>
        (await query(db.url, "SELECT count(*)::int AS n FROM jobs WHERE status = 'AWAITING_RENDERING'"))[0]!.n === 3,
      30_000
    )

    // W's one video comes after X's first and before X's second, though it arrived last.
    const seenByW = (await w.api.get(`/v1/pipeline/${ofW}`)).body.job
    expect(seenByW).toMatchObject({
      state: "AWAITING_RENDERING",
      renderPosition: 2,
      renderWait: { reason: "1 video of other workspaces ahead", otherWorkspaces: 1, ownPipeline: 0, ownExports: 0 }
    })
    const seenByX = (await x.api.get(`/v1/pipeline/${second}`)).body.job
    expect(seenByX).toMatchObject({
      renderPosition: 3,
      renderWait: {
        reason: "1 video of other workspaces ahead, 1 video of your own pipeline ahead",
        otherWorkspaces: 1,
        ownPipeline: 1,
        ownExports: 0
      }
    })
    expect((await x.api.get(`/v1/pipeline/${first}`)).body.job).toMatchObject({
      renderPosition: 1,
      renderWait: { reason: "next for a free render slot", otherWorkspaces: 0, ownPipeline: 0, ownExports: 0 }
    })
  }, 120_000)
})
