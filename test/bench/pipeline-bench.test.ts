import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BenchNode, startBenchNode, stopsOnce } from "../../bench/support/BenchRun.js"
import { runPipeline } from "../../bench/support/PipelineRun.js"
import { benchWorkspace, preparePipeline } from "../../bench/support/PipelineSetup.js"
import { exportSameRenders } from "../../bench/support/PipelineYardstick.js"
import { admin, OWNER_EMAIL } from "../support/Client.js"
import { settledJobs } from "../support/Jobs.js"

const stops = stopsOnce()
let bench: BenchNode

beforeAll(async () => {
  bench = await startBenchNode("pipeline_bench", {}, stops)
})

afterAll(stops.run)

/** A job whose post is due: waiting for hand-over, being handed over, or handed over. */
const DUE = ["SCHEDULED", "PUBLISHING", "PUBLISHED"]

describe("npm run bench:pipeline, a short profile", () => {
  it(
    "3 events on 2 channels: every job is due with one post, then published, and each distinct video is drawn and counted once",
    async () => {
      const { node, db, database } = bench
      const target = await preparePipeline(node, "compact")
      // The bench's owner receives the hand-over emails (the node's outbox), so due posts are published.
      const owner = await admin(node).post(`/admin/workspaces/${target.workspaceId}/members`, {
        email: OWNER_EMAIL,
        role: "owner"
      })
      expect(owner.status, owner.text).toBe(201)
      const run = await runPipeline(node, db, target, 3, 50_000)

      // The run ends as the last render does; hand-over takes each job on from SCHEDULED meanwhile.
      expect(Object.keys(run.statuses).filter((status) => !DUE.includes(status))).toEqual([])
      expect(Object.values(run.statuses).reduce((sum, n) => sum + n, 0)).toBe(6)
      expect(run.jobsWithOnePost).toBe(6)
      expect(run.distinctRenders).toBe(6)
      expect(run.quotaUsed).toBe(6)
      expect(run.latenciesMs).toHaveLength(6)
      const settled = await settledJobs(database.url, "workspace_id = $1", [target.workspaceId], 30_000)
      expect(settled.map((job) => job.status)).toEqual(Array(6).fill("PUBLISHED"))

      const yardstick = await exportSameRenders(
        node,
        db,
        { key: target.key, renderJobIds: run.renderJobIds },
        await benchWorkspace(node, "Export yardstick"),
        50_000
      )
      expect(yardstick.statuses).toEqual(Array(6).fill("succeeded"))
    },
    110_000
  )
})
