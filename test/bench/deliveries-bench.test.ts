import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type BenchNode,
  plainCompanion,
  type PlainProcess,
  startBenchNode,
  stopsOnce
} from "../../bench/support/BenchRun.js"
import { receiverCount, runBursts, seedBursts } from "../../bench/support/DeliveryRun.js"
import { prepareDeliveries } from "../../bench/support/DeliverySetup.js"
import { plainLoop } from "../../bench/support/DeliveryYardstick.js"

const stops = stopsOnce()
let bench: BenchNode<PlainProcess>

beforeAll(async () => {
  bench = await startBenchNode("deliveries_bench", {
    env: { ALLOW_PRIVATE_URLS: "true" },
    companion: plainCompanion("receiver", "bench/support/DeliveryReceiver.ts")
  }, stops)
})

afterAll(stops.run)

describe("npm run bench:deliveries, a short profile", () => {
  it(
    "3 bursts of 40 seeded posts: each post is published and reaches the receiver once, under one webhook-id; the " +
      "plain loop sends every body again",
    async () => {
      const { node, db, companion: receiver } = bench
      const target = await prepareDeliveries(node, `${receiver.url}/hooks`)
      const plan = { bursts: 3, perBurst: 40, everyMs: 500, timeoutMs: 60_000 }
      const run = await runBursts(db, target, await seedBursts(db, target, plan), receiver.url, plan)

      expect(run.states).toEqual({ PUBLISHED: 120 })
      expect(run.deliveryStates).toEqual({ DELIVERED: 120 })
      expect({
        calls: run.calls,
        webhookIds: run.webhookIds,
        postsNotOnce: run.postsNotOnce,
        repeatedIds: run.repeatedIds,
        unknownIds: run.unknownIds
      }).toEqual({ calls: 120, webhookIds: 120, postsNotOnce: 0, repeatedIds: 0, unknownIds: 0 })
      expect(run.latenciesMs).toHaveLength(120)

      const plain = await plainLoop(db, target.workspaceId, target.secret, `${receiver.url}/plain`)
      expect(plain).toMatchObject({ calls: 120, ok: 120 })
      expect(await receiverCount(receiver.url, "/plain")).toBe(120)
    },
    90_000
  )
})
