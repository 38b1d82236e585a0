import { describe, expect, it } from "vitest"
import { newEventId } from "../support/Routes.js"
import { content, handOverRig, openDesk } from "./HandOverDesk.js"

const rig = handOverRig("handover_trace", { outbox: true })

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"

describe("one trace from ingest to hand-over", () => {
  it("the webhook call continues the trace of the request that brought its event in", async () => {
    const desk = await openDesk(rig.node, { name: "Trace", webhookUrl: rig.receiver.url })
    await desk.channel({ name: "Shorts", surface: "youtube-shorts", deliverByWebhook: true, deliverByEmail: false })
    const streamId = (await desk.api.get("/v1/stream")).body.streams[0].streamId as string
    const before = rig.receiver.calls.length
    const sent = await desk.api.post(
      "/v1/stream",
      { streamId, eventId: newEventId(), occurredAt: new Date().toISOString(), data: content },
      { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` }
    )
    expect(sent.status, sent.text).toBe(202)
    // The answer's traceparent is the request's span, in the caller's trace.
    expect(sent.headers.get("traceparent")).toMatch(new RegExp(`^00-${TRACE_ID}-`))
    const calls = await rig.receiver.waitFor(before + 1, 120_000)
    const call = calls[before]!
    expect(call.headers["traceparent"]).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`))
  }, 180_000)
})
