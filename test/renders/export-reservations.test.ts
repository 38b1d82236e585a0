import { beforeAll, describe, expect, it } from "vitest"
import { newUlid } from "../../src/domain/Ulid.js"
import { workspaceWithKey } from "../support/Client.js"
import { query } from "../support/Database.js"
import { compactExample, videoBody, waitForExport } from "../support/Exports.js"
import { useNode } from "../support/Rig.js"

let ws: Awaited<ReturnType<typeof workspaceWithKey>>
let example: Record<string, unknown>

const { db, node } = useNode({ label: "export_reservations" })

beforeAll(async () => {
  ws = await workspaceWithKey(node, ["renders:write", "renders:read", "templates:read", "allowance:read"])
  example = await compactExample(ws.api)
})

/** Videos the allowance counts: finished, and reserved for renders in flight. */
const counted = async () => {
  const { quota } = (await ws.api.get("/v1/renders/quota")).body
  return quota.allowance - quota.remaining
}

const discardAll = (jobIds: ReadonlyArray<string>) =>
  Promise.all(jobIds.map((jobId) => ws.api.post(`/v1/direct-export/video/${jobId}/discard`)))

describe("direct exports and the allowance", () => {
  it(
    "the same batch sent 5 times with one x-request-id is one batch, counted once; another body is another",
    async () => {
      const before = await counted()
      const requestId = newUlid()
      const batch = videoBody(example, { ratios: ["1x1", "9x16"] })
      const answers: Array<Array<string>> = []
      for (let i = 0; i < 5; i++) {
        const r = await ws.api.post("/v1/direct-export/batch", batch, { "x-request-id": requestId })
        expect(r.status, r.text).toBe(202)
        expect(r.headers.get("x-request-id")).toBe(requestId)
        answers.push(r.body.jobs.map((job: { jobId: string }) => job.jobId))
      }
      const jobIds = answers[0]!
      expect(jobIds).toHaveLength(2)
      for (const answer of answers) expect(answer).toEqual(jobIds)
      expect(await counted()).toBe(before + 2)

      // The same header on another body is not a retry: its video is its own, and counted.
      const other = await ws.api.post("/v1/direct-export/video", videoBody(example, { ratio: "4x5" }), {
        "x-request-id": requestId
      })
      expect(other.status, other.text).toBe(202)
      expect(jobIds).not.toContain(other.body.jobId)
      expect(await counted()).toBe(before + 3)
      const all = [...jobIds, other.body.jobId as string]
      const reservations = await query<{ n: number }>(
        db.url,
        "SELECT count(*)::int AS n FROM allowance_reservations WHERE render_job_id = ANY($1) AND state <> 'released'",
        [all]
      )
      expect(reservations[0]!.n).toBe(3)
      await discardAll(all)
    },
    60_000
  )

  it("a render that holds no reservation is failed with the reason, not drawn", async () => {
    const r = await ws.api.post("/v1/direct-export/video", videoBody(example))
    expect(r.status, r.text).toBe(202)
    const model = r.body.jobId as string
    await discardAll([model])
    await waitForExport(ws.api, model).catch(() => undefined)

    // A render job and its export as a bug elsewhere could leave them: rows, no reservation, no runner told. The
    // orphan sweep starts its runner (it looks unstarted for over 30 s).
    const id = newUlid()
    const override = {
      id,
      state: "PENDING",
      attempt: 0,
      error: null,
      progress: 0,
      started_at: null,
      finished_at: null,
      swept_at: null,
      outputs_succeeded: 0,
      // Not in line and drawn by nobody: no runner ever waited for it (only a runner that checked the reservation
      // puts a render in line, RenderQueue.line).
      in_line_at: null,
      drawn_by: null
    }
    await query(
      db.url,
      `INSERT INTO render_jobs
      SELECT (jsonb_populate_record(j, $2::jsonb)).* FROM render_jobs j WHERE j.id = $1`,
      [model, JSON.stringify(override)]
    )
    await query(db.url, "UPDATE render_jobs SET submitted_at = now() - interval '2 minutes' WHERE id = $1", [id])
    await query(
      db.url,
      `INSERT INTO render_outputs (render_job_id, ratio, locale)
      SELECT $2, ratio, locale FROM render_outputs WHERE render_job_id = $1`,
      [model, id]
    )
    await query(
      db.url,
      `INSERT INTO exports SELECT (jsonb_populate_record(e, $2::jsonb)).* FROM exports e WHERE e.id = $1`,
      [
        model,
        JSON.stringify({
          id,
          render_job_id: id,
          status: "queued",
          error: null,
          clip_id: null,
          finished_at: null,
          discarded_at: null
        })
      ]
    )

    const ended = await waitForExport(ws.api, id)
    expect(ended.status).toBe("failed")
    expect(JSON.stringify(ended)).toContain("holds no reservation")
    const clips = await query<{ n: number }>(db.url, "SELECT count(*)::int AS n FROM clips WHERE render_job_id = $1", [
      id
    ])
    expect(clips[0]!.n).toBe(0)
  }, 90_000)
})
