import { describe, expect, it } from "vitest"
import { describeInvariants, holds } from "../../bench/support/FaultsChecks.js"
import { runMatrix, shortProfile } from "../../bench/support/FaultsMatrix.js"

/**
 * `npm run faults -- --profile short` inside the suite: three nodes, the steady mix, and every fault of the matrix
 * in its short form. Each row must recover with every invariant holding (docs/faults.md says what each one reads);
 * a row that does not carries the dump's summary into the failure message, which is what CI keeps of a run.
 */
describe("the fault matrix, short profile", () => {
  it("recovers from every fault with every invariant holding", async () => {
    const result = await runMatrix(shortProfile)
    const failed = result.rows.filter((row) => row.recoveredMs === undefined || !holds(row.invariants))
      .map((row) => [`${row.fault}: ${describeInvariants(row.invariants)} (${row.note})`, ...row.stuck].join("\n  "))
    expect(failed).toEqual([])
    expect(result.rows.map((row) => row.fault)).toEqual(shortProfile.faults.map((fault) => fault.name))
    expect(result.accepted).toBeGreaterThan(0)
    expect(result.sinkMessages).toBeGreaterThan(0)
  }, 25 * 60_000)
})
