import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The short fault matrix first, then the other files smallest first. On a fresh clone (no durations cached) vitest
 * starts the largest files first, so the matrix (a small file running for minutes) began near the end and made the
 * run's tail on one fork. Started first beside the other fork's heaviest files, it recovered 2–3 times slower (the
 * nodes starved) and the run was no shorter; beside the small files it runs on a quieter machine, and the large
 * files end the run on both forks.
 */
const FIRST = "test/faults/faults-short.test.ts"

class MatrixFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>) {
    const bySize = [...await super.sort(files)].reverse()
    return [...bySize.filter((f) => f.moduleId.endsWith(FIRST)), ...bySize.filter((f) => !f.moduleId.endsWith(FIRST))]
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/BuildOnce.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    sequence: { sequencer: MatrixFirst }
  }
})
