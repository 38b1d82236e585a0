import { describe, expect, it } from "vitest"
import { describeInvariants, holds } from "../../bench/support/FaultsChecks.js"
import { runMatrix, shortProfile } from "../../bench/support/FaultsMatrix.js"

/**
 * `npm run faults -- --profile short` inside the suite: three nodes, the steady mix, and every fault of the matrix
 * in its short form. Each row must recover with every invariant holding (docs/faults.md says what each one reads).
 */
describe("the fault matrix, short profile", () => {
  it("recovers from every fault with every invariant holding", async () => {
    const result = await runMatrix(shortProfile)
    const failed = result.rows.filter((row) => row.recoveredMs === undefined || !holds(row.invariants))
      .map((row) => `${row.fault}: ${describeInvariants(row.invariants)} (${row.note})`)
    expect(failed).toEqual([])
    expect(result.rows.map((row) => row.fault)).toEqual(shortProfile.faults.map((fault) => fault.name))
    expect(result.accepted).toBeGreaterThan(0)
    expect(result.sinkMessages).toBeGreaterThan(0)
  }, 15 * 60_000)
})
