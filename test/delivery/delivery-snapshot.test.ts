import { SqlClient } from "@effect/sql"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { DeliveryRepo } from "../../src/delivery/handover/DeliveryRepo.js"
import { DeliveriesQuery } from "../../src/delivery/log/DeliveriesQuery.js"
import { Identity } from "../../src/identity/Identity.js"
import { IdentityRepo } from "../../src/identity/IdentityRepo.js"
import { newWorkspace, serviceTestLayer } from "../support/ServiceLayer.js"

const SnapshotTest = Layer.mergeAll(DeliveriesQuery.layer, DeliveryRepo.layer, Identity.layer).pipe(
  Layer.provideMerge(IdentityRepo.layer),
  Layer.provideMerge(serviceTestLayer("delivery_snapshot"))
)

const ATTEMPTS = 400

describe("a delivery and its attempts are read as of one moment", () => {
  layer(SnapshotTest, { timeout: 120_000, excludeTestServices: true })((it) => {
    // A retry test once saw a delivery DEAD beside two of its three attempts: the delivery and its attempts were read
    // by two statements at once, and the last attempt (written with its state in one statement) committed between them.
    it.effect("never shows a state or a counter its attempts do not bear out, while attempts are being recorded", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const repo = yield* DeliveryRepo
        const query = yield* DeliveriesQuery
        const ws = yield* newWorkspace("Snapshot")
        const id = "dlv_snapshot"
        yield* sql`INSERT INTO deliveries (id, workspace_id, owner, via, event, state)
                   VALUES (${id}, ${ws}, 'owner', 'webhook', 'post.publish', 'PENDING')`
        const writer = yield* Effect.fork(
          Effect.forEach(Array.from({ length: ATTEMPTS }, (_, i) => i + 1), (attempt) =>
            repo.record([{
              deliveryId: id,
              state: attempt === ATTEMPTS ? "DEAD" : "RETRYING",
              redelivery: false,
              startedAt: new Date(),
              durationMs: 1,
              statusCode: 500,
              error: "HTTP 500",
              answer: null,
              headers: null,
              nextAttemptAt: attempt === ATTEMPTS ? null : new Date(Date.now() + 1000)
            }]), { discard: true })
        )
        const disagreements: Array<string> = []
        let reads = 0
        let dead = false
        while (!dead) {
          const [found, attempts] = yield* query.findWithAttempts(ws, id)
          assert.isTrue(found._tag === "Some")
          const delivery = found._tag === "Some" ? found.value : undefined
          reads++
          dead = delivery?.state === "DEAD"
          if (delivery?.attempt !== attempts.length || (dead && attempts.length !== ATTEMPTS)) {
            disagreements.push(`${delivery?.state} attempt ${delivery?.attempt} beside ${attempts.length} attempts`)
          }
        }
        yield* Fiber.join(writer)
        assert.deepStrictEqual(disagreements.slice(0, 5), [])
        assert.isAbove(reads, 10, "the reads ran while the attempts were being recorded")
      }))
  })
})
