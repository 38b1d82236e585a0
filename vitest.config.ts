import { defineConfig } from "vitest/config"

/**
 * `npm test` runs every file but the short fault matrix with two files at a time, then the matrix alone
 * (`npm run test:faults-short`): its three nodes fill the two cores by themselves, and beside other files both it and
 * they ran out of time. Three files at a time were tried on the quiet machine (2026-12-02): the load reached 26 on two
 * cores, the first three files took 100–530 s and the CLI tests' node starts ran past their 60 s.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/BuildOnce.ts"],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } }
  }
})
