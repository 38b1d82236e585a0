import { describe, expect, it } from "vitest"
import { type Answer, client, workspaceWithKey } from "../support/Client.js"
import { useNodes } from "../support/Rig.js"
import { indexClose, MARKET, newEventId } from "../support/Routes.js"

const { nodes } = useNodes({ label: "ingest_config_changes", count: 2 })

/** Sends fresh events through `api` until `done` says the answer shows the change, for at most two seconds. */
const untilSeen = async (send: () => Promise<Answer>, done: (answer: Answer) => boolean) => {
  const deadline = Date.now() + 2_000
  let answer = await send()
  while (!done(answer) && Date.now() < deadline) answer = await send()
  return answer
}

describe("a configuration change made through one node reaches what another node's ingest remembers", () => {
  it("a new subscription, then the stream switched off", async () => {
    const ws = await workspaceWithKey(nodes[0]!, ["streams:write", "channels:write", "brands:write", "ingest:write"])
    const first = ws.api
    const second = client(nodes[1]!, ws.apiKey)
    await first.post("/v1/brands", { name: "House" })
    const stream = (await first.post("/v1/streams", { name: "Prices", templateId: MARKET })).body.stream
    const subscribe = async (name: string) => {
      const channel = (await first.post("/v1/channels", { name })).body.channel
      expect(
        (await first.post(`/v1/channels/${channel.id}/subscriptions`, { kind: "STREAM", streamId: stream.id })).status
      ).toBe(201)
    }
    await subscribe("One")
    const send = () =>
      second.post("/v1/stream", {
        streamId: stream.id,
        eventId: newEventId(),
        occurredAt: new Date().toISOString(),
        data: indexClose
      })
    // The second node now remembers the stream with one listening channel.
    expect((await send()).body.matched).toHaveLength(1)

    await subscribe("Two")
    const two = await untilSeen(send, (a) => a.body.matched?.length === 2)
    expect(two.body.matched).toHaveLength(2)

    expect((await first.post(`/v1/streams/${stream.id}/update`, { enabled: false })).status).toBe(200)
    const refused = await untilSeen(send, (a) => a.status === 409)
    expect(refused.status, refused.text).toBe(409)
    expect(refused.body.error.code).toBe("stream_disabled")
  })
})
