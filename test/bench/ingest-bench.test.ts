import { describe, expect, it } from "vitest"
import { sendEvents } from "../../bench/support/IngestLoad.js"
import { countLanded, marketEvent, prepareClipwright } from "../../bench/support/IngestSetup.js"
import { useNode } from "../support/Rig.js"

const { db, node } = useNode({ label: "ingest_bench" })

describe("npm run bench:ingest, a short profile", () => {
  it("10 senders for 2 s: every answer is 202 accepted, and each accepted event is stored once with its 2 jobs", async () => {
    const target = await prepareClipwright(node)
    const sent = await sendEvents({
      url: `${node.url}/v1/stream`,
      key: target.key,
      senders: 10,
      seconds: 2,
      body: marketEvent(target.streamId)
    })

    expect(sent.failures).toEqual({})
    expect(sent.answers).toBeGreaterThan(0)
    expect(sent.accepted).toBe(sent.answers)
    expect(new Set(sent.acceptedEventIds).size).toBe(sent.accepted)
    const landed = await countLanded(db.url)
    expect(landed).toEqual({ events: sent.accepted, jobs: 2 * sent.accepted, repeatedEventIds: 0 })
  })
})
