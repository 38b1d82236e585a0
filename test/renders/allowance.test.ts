import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { WorkspaceId } from "../../src/domain/Principal.js"
import { newUlid } from "../../src/domain/Ulid.js"
import { Quotas } from "../../src/renders/allowance/Quotas.js"
import { WorkspaceAllowanceEntity } from "../../src/renders/allowance/WorkspaceAllowanceEntity.js"
import { allowanceTestLayer } from "../support/AllowanceLayer.js"
import { newWorkspace } from "../support/ServiceLayer.js"

const AllowanceTest = allowanceTestLayer("renders_allowance")

/** What the quota block says is left and used this month. */
const left = (workspaceId: WorkspaceId) =>
  Effect.flatMap(Quotas, (quotas) => quotas.quota(workspaceId)).pipe(
    Effect.map(({ remaining, used }) => ({ remaining, used }))
  )

// Entity calls go through the cluster runner, whose polling the TestClock would hold still: the live services
// (`it.live` inside `it.layer` would run without the layer).
describe("renders: the workspace render allowance", () => {
  layer(AllowanceTest, { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("a reservation is applied once per request, and a render settles it once", () =>
      Effect.gen(function*() {
        const allowance = yield* WorkspaceAllowanceEntity.client
        const ws = yield* newWorkspace("Acme")
        const [first, second] = [newUlid(), newUlid()]
        const requestId = newUlid()
        yield* allowance(ws).Reserve({ requestId, renderJobIds: [first, second] })
        yield* allowance(ws).Reserve({ requestId, renderJobIds: [first, second] })
        assert.deepStrictEqual(yield* left(ws), { remaining: 498, used: 0 })

        yield* allowance(ws).Settle({ renderJobId: first, outcome: "commit" })
        yield* allowance(ws).Settle({ renderJobId: second, outcome: "release" })
        assert.deepStrictEqual(yield* left(ws), { remaining: 499, used: 1 })
        // A render finished again after a crash, or a late opposite outcome, changes nothing.
        yield* allowance(ws).Settle({ renderJobId: first, outcome: "commit" })
        yield* allowance(ws).Settle({ renderJobId: first, outcome: "release" })
        yield* allowance(ws).Settle({ renderJobId: second, outcome: "commit" })
        assert.deepStrictEqual(yield* left(ws), { remaining: 499, used: 1 })
      }))

    it.effect("refuses a batch beyond the allowance whole, reserving none of it", () =>
      Effect.gen(function*() {
        const allowance = yield* WorkspaceAllowanceEntity.client
        const ws = yield* newWorkspace("Small")
        yield* (yield* Quotas).setLimits(ws, { renderAllowance: 2 })

        const refused = yield* Effect.flip(
          allowance(ws).Reserve({ requestId: newUlid(), renderJobIds: [newUlid(), newUlid(), newUlid()] })
        )
        assert.strictEqual(refused._tag, "RateLimited")
        assert.deepStrictEqual(yield* left(ws), { remaining: 2, used: 0 })

        yield* allowance(ws).Reserve({ requestId: newUlid(), renderJobIds: [newUlid(), newUlid()] })
        assert.deepStrictEqual(yield* left(ws), { remaining: 0, used: 0 })
        const full = yield* Effect.flip(allowance(ws).Reserve({ requestId: newUlid(), renderJobIds: [newUlid()] }))
        assert.strictEqual(full._tag, "RateLimited")
      }))

    it.effect("one workspace's supervisor cannot settle another's render; an unknown workspace reserves nothing", () =>
      Effect.gen(function*() {
        const allowance = yield* WorkspaceAllowanceEntity.client
        const [mine, theirs] = [yield* newWorkspace("Mine"), yield* newWorkspace("Theirs")]
        const job = newUlid()
        yield* allowance(mine).Reserve({ requestId: newUlid(), renderJobIds: [job] })

        yield* allowance(theirs).Settle({ renderJobId: job, outcome: "commit" })
        assert.deepStrictEqual(yield* left(mine), { remaining: 499, used: 0 })
        assert.deepStrictEqual(yield* left(theirs), { remaining: 500, used: 0 })
        yield* allowance(mine).Settle({ renderJobId: job, outcome: "commit" })
        assert.deepStrictEqual(yield* left(mine), { remaining: 499, used: 1 })

        const nobody = allowance(newUlid())
        const unknown = yield* Effect.flip(nobody.Reserve({ requestId: newUlid(), renderJobIds: [newUlid()] }))
        assert.strictEqual(unknown._tag, "NotFound")
      }))
  })
})
