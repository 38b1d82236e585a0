import { sleep } from "./Common.js"
import type { BenchDatabase } from "./PipelineSetup.js"

/** What became of a set of packages, read from the tables. */
export interface Firing {
  readonly packages: number
  readonly fired: number
  /** `fired_at − scheduled_for` of each fired package. */
  readonly latenessMs: ReadonlyArray<number>
  /** Fired before their time (should be none). */
  readonly early: number
  /** Packages with no event or more than one under their `package:<id>`, or naming another event than theirs. */
  readonly notOnce: number
  /** Jobs of their events (none while no channel listens). */
  readonly jobs: number
}

export const firingOf = async (db: BenchDatabase, ids: ReadonlyArray<string>): Promise<Firing> => {
  const rows = await db.rows<{ state: string; lateness_ms: number | null; events: number; named: boolean | null }>(
    `
    SELECT p.state, (extract(epoch FROM p.fired_at - p.scheduled_for) * 1000)::float8 AS lateness_ms,
      count(e.id)::int AS events, bool_and(e.id = p.ingest_event_id) AS named
    FROM queue_packages p
    LEFT JOIN ingest_events e ON e.workspace_id = p.workspace_id AND e.event_id = 'package:' || p.id
    WHERE p.id = ANY($1)
    GROUP BY p.id`,
    [ids]
  )
  const [{ jobs }] = await db.rows<{ jobs: number }>(
    `
    SELECT count(*)::int AS jobs FROM jobs j
    JOIN queue_packages p ON p.ingest_event_id = j.ingest_event_id
    WHERE p.id = ANY($1)`,
    [ids]
  ) as [{ jobs: number }]
  const fired = rows.filter((r) => r.state === "FIRED")
  return {
    packages: rows.length,
    fired: fired.length,
    latenessMs: fired.map((r) => r.lateness_ms!),
    early: fired.filter((r) => r.lateness_ms! < 0).length,
    notOnce: fired.filter((r) => r.events !== 1 || r.named !== true).length +
      rows.filter((r) => r.state !== "FIRED" && r.events > 0).length,
    jobs
  }
}

/** Polls every 200 ms until every package is FIRED or the deadline passes; answers how many fired. */
export const waitFired = async (db: BenchDatabase, ids: ReadonlyArray<string>, deadline: number) => {
  for (;;) {
    const [{ fired }] = await db.rows<{ fired: number }>(
      "SELECT count(*)::int AS fired FROM queue_packages WHERE id = ANY($1) AND state = 'FIRED'",
      [ids]
    ) as [{ fired: number }]
    if (fired === ids.length || Date.now() > deadline) return fired
    await sleep(200)
  }
}
