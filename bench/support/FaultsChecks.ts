import { query } from "../../test/support/Database.js"
import type { FaultCall } from "./FaultsReceiver.js"

/** What broke, per invariant: an empty list means the invariant holds. */
export interface Invariants {
  /** 202s the runner got whose event is not stored ACCEPTED, and ACCEPTED events without jobs. */
  readonly lostEvents: ReadonlyArray<string>
  /** Posts handed over (webhook, publish) under more than one delivery id, in the tables or at the receiver. */
  readonly postsNotOnce: ReadonlyArray<string>
  /** Renders counted twice: a committed reservation of an unfinished render, or two of one video. */
  readonly countedTwice: ReadonlyArray<string>
  /** Post-list packages due before `settledBefore` not fired, or fired into more than one event or job per channel. */
  readonly packagesNotOnce: ReadonlyArray<string>
  /**
   * Jobs from before `settledBefore` still on their way, failed jobs without a reason, and deliveries whose next
   * attempt is more than half a minute overdue.
   */
  readonly stuck: ReadonlyArray<string>
  /** Deliveries dead after the receiver refused their signature or timestamp (401): posts a long outage lost. */
  readonly refusedToDeath: ReadonlyArray<string>
}

export const holds = (i: Invariants) => Object.values(i).every((broken) => broken.length === 0)

export const describeInvariants = (i: Invariants) =>
  holds(i)
    ? "all hold"
    : Object.entries(i).filter(([, broken]) => broken.length > 0)
      .map(([name, broken]) => `${name}: ${broken.length} (${broken.slice(0, 3).join(", ")})`).join("; ")

// A job moves by itself while it renders and until hand-over is done with it; AWAITING_APPROVAL waits for a person
// (the mix approves), a SCHEDULED job not yet due waits for its time.
const moving = `status IN ('ACCEPTED', 'AWAITING_RENDERING', 'RENDERING', 'DOWNLOADING', 'PUBLISHING')
  OR (status = 'SCHEDULED' AND scheduled_for <= now())`

/**
 * Reads the invariants from the tables and the receiver's record. Jobs created after `settledBefore` may still be on
 * their way (the mix keeps sending); older ones may not.
 */
export const checkInvariants = async (
  databaseUrl: string,
  workspaceId: string,
  acceptedIds: ReadonlyArray<string>,
  calls: ReadonlyArray<FaultCall>,
  settledBefore: Date
): Promise<Invariants> => {
  const stored = await query<{ id: string }>(
    databaseUrl,
    "SELECT id FROM ingest_events WHERE workspace_id = $1 AND status = 'ACCEPTED' AND id = ANY($2)",
    [workspaceId, [...acceptedIds]]
  )
  const storedIds = new Set(stored.map((r) => r.id))
  const withoutJobs = await query<{ id: string }>(
    databaseUrl,
    `SELECT e.id FROM ingest_events e WHERE e.workspace_id = $1 AND e.status = 'ACCEPTED'
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.ingest_event_id = e.id)`,
    [workspaceId]
  )
  const lostEvents = [
    ...acceptedIds.filter((id) => !storedIds.has(id)).map((id) => `${id} not stored`),
    ...withoutJobs.map((r) => `${r.id} without jobs`)
  ]

  const tableTwice = await query<{ post_id: string }>(
    databaseUrl,
    `SELECT dp.post_id FROM delivery_posts dp JOIN deliveries d ON d.id = dp.delivery_id
      WHERE d.workspace_id = $1 AND dp.via = 'webhook' AND dp.event = 'post.publish' GROUP BY 1 HAVING count(*) > 1`,
    [workspaceId]
  )
  const idsByPost = new Map<string, Set<string>>()
  for (const c of calls) {
    for (const post of c.postIds) idsByPost.set(post, (idsByPost.get(post) ?? new Set()).add(c.webhookId))
  }
  const postsNotOnce = [
    ...tableTwice.map((r) => `${r.post_id} in two deliveries`),
    ...[...idsByPost].filter(([, ids]) => ids.size > 1).map(([post]) => `${post} under two webhook-ids`)
  ]

  const unfinished = await query<{ render_job_id: string; state: string }>(
    databaseUrl,
    `SELECT a.render_job_id, r.state FROM allowance_reservations a JOIN render_jobs r ON r.id = a.render_job_id
      WHERE a.workspace_id = $1 AND a.state = 'committed' AND r.state <> 'COMPLETED'`,
    [workspaceId]
  )
  // The pipeline draws one video per content: two committed renders of one content key were counted twice.
  const twice = await query<{ content_key: string; n: number; renders: string }>(
    databaseUrl,
    `SELECT r.content_key, count(*)::int AS n,
            string_agg(r.id || ' attempt ' || r.attempt || ' at ' || r.submitted_at::text, '; ') AS renders FROM allowance_reservations a JOIN render_jobs r ON r.id = a.render_job_id
      WHERE a.workspace_id = $1 AND a.state = 'committed' AND r.id IN (SELECT render_job_id FROM jobs WHERE workspace_id = $1)
      GROUP BY 1 HAVING count(*) > 1`,
    [workspaceId]
  )
  const countedTwice = [
    ...unfinished.map((r) => `${r.render_job_id} committed while ${r.state}`),
    ...twice.map((r) => `${r.content_key} committed ${r.n}× (${r.renders})`)
  ]

  // A package fires as the event `package:<id>`; a job per listening channel (one here).
  const packages = await query<{ id: string; state: string; events: number; jobs: number }>(
    databaseUrl,
    `SELECT p.id, p.state,
            (SELECT count(*)::int FROM ingest_events e WHERE e.workspace_id = $1 AND e.event_id = 'package:' || p.id) AS events,
            (SELECT count(*)::int FROM jobs j JOIN ingest_events e ON e.id = j.ingest_event_id
              WHERE e.workspace_id = $1 AND e.event_id = 'package:' || p.id) AS jobs
       FROM queue_packages p WHERE p.workspace_id = $1 AND p.scheduled_for < $2`,
    [workspaceId, settledBefore]
  )
  const packagesNotOnce = packages.filter((p) => p.state !== "FIRED" || p.events !== 1 || p.jobs !== 1)
    .map((p) => `${p.id} ${p.state}, ${p.events} event(s), ${p.jobs} job(s)`)

  const stuckJobs = await query<{ id: string; status: string }>(
    databaseUrl,
    `SELECT id, status FROM jobs WHERE workspace_id = $1 AND created_at < $2 AND ((${moving})
        OR (status IN ('RENDER_FAILED', 'POST_FAILED') AND coalesce(error, '') = ''))`,
    [workspaceId, settledBefore]
  )
  const overdue = await query<{ id: string; state: string; attempt: number }>(
    databaseUrl,
    `SELECT id, state, attempt FROM deliveries WHERE workspace_id = $1 AND state IN ('PENDING', 'RETRYING')
        AND coalesce(next_attempt_at, created_at) < now() - interval '30 seconds'`,
    [workspaceId]
  )
  const stuck = [
    ...stuckJobs.map((j) => `job ${j.id} ${j.status}`),
    ...overdue.map((d) => `delivery ${d.id} ${d.state} after attempt ${d.attempt}, next attempt overdue`)
  ]
  const refused = await query<{ id: string; attempt: number }>(
    databaseUrl,
    "SELECT id, attempt FROM deliveries WHERE workspace_id = $1 AND state = 'DEAD' AND last_status_code = 401",
    [workspaceId]
  )
  const refusedToDeath = refused.map((d) => `delivery ${d.id} dead after ${d.attempt} attempts, the last refused 401`)
  return { lostEvents, postsNotOnce, countedTwice, packagesNotOnce, stuck, refusedToDeath }
}

/** Final states the jobs of the workspace ended in, counted (the table's context: a failed job has its reason). */
export const jobStates = async (databaseUrl: string, workspaceId: string) =>
  Object.fromEntries(
    (await query<{ status: string; n: number }>(
      databaseUrl,
      "SELECT status, count(*)::int AS n FROM jobs WHERE workspace_id = $1 GROUP BY 1 ORDER BY 1",
      [workspaceId]
    ))
      .map((r) => [r.status, r.n])
  )

/** Why the workspace's failed jobs failed, counted: what a fault cost the people waiting for those posts. */
export const failureReasons = async (databaseUrl: string, workspaceId: string) =>
  Object.fromEntries(
    (await query<{ reason: string; n: number }>(
      databaseUrl,
      `SELECT status || ': ' || left(coalesce(error, '(none)'), 160) AS reason, count(*)::int AS n FROM jobs
      WHERE workspace_id = $1 AND status IN ('RENDER_FAILED', 'POST_FAILED') GROUP BY 1 ORDER BY 2 DESC`,
      [workspaceId]
    ))
      .map((r) => [r.reason, r.n])
  )
