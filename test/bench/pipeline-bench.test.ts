import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runPipeline } from "../../bench/support/PipelineRun.js"
import { benchWorkspace, openDatabase, preparePipeline, type BenchDatabase } from "../../bench/support/PipelineSetup.js"
import { exportSameRenders } from "../../bench/support/PipelineYardstick.js"
import { createTestDatabase, type TestDatabase } from "../support/Database.js"
import { startNode, type TestNode } from "../support/Node.js"

let database: TestDatabase
let node: TestNode
let db: BenchDatabase

beforeAll(async () => {
  database = await createTestDatabase("pipeline_bench")
  node = await startNode({ databaseUrl: database.url })
  db = await openDatabase(database.url)
})

afterAll(async () => {
  await db?.close()
  await node?.stop()
  await database?.drop()
})

describe("npm run bench:pipeline, a short profile", () => {
  it("3 events on 2 channels: every job is scheduled with one post, and each distinct video is drawn and counted once",
    async () => {
      const target = await preparePipeline(node, "compact")
      const run = await runPipeline(node, db, target, 3, 50_000)

      expect(run.statuses).toEqual({ SCHEDULED: 6 })
      expect(run.jobsWithOnePost).toBe(6)
      expect(run.distinctRenders).toBe(6)
      expect(run.quotaUsed).toBe(6)
      expect(run.latenciesMs).toHaveLength(6)

      const yardstick = await exportSameRenders(node, db, { key: target.key, renderJobIds: run.renderJobIds },
        await benchWorkspace(node, "Export yardstick"), 50_000)
      expect(yardstick).toMatchObject({ renders: 6, succeeded: 6 })
    }, 110_000)
})
