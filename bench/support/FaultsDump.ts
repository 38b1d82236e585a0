import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { query as queryDb } from "../../test/support/Database.js"
import type { TestNode } from "../../test/support/Node.js"
import type { FaultsRig } from "./FaultsRig.js"

/**
 * What a fault that did not recover leaves for whoever reads the run: each node's log, and each stuck job with its
 * channel and the channel entity's messages that were never
 * answered, and the database's sessions and locks. Written to a folder of its own; answers it.
 */
export const dumpUnrecovered = async (rig: FaultsRig, workspaceId: string, fault: string) => {
  // Each query on its own: one that fails (the database down, a column renamed) must not hide what the others say.
  const failed: Array<string> = []
  const query = async (url: string, text: string, values: Array<unknown> = []) => {
    try {
      return await queryDb(url, text, values)
    } catch (error) {
      failed.push(`${text.trim().slice(0, 60)}…: ${String(error)}`)
      return []
    }
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `clipwright-faults-${fault.replace(/\W+/g, "-")}-`))
  rig.nodes.forEach((node) => fs.writeFileSync(path.join(folder, `node-${node.process.pid}.log`), node.output()))
  const jobs = await query(
    rig.db.url,
    `SELECT id, status, channel_id, dispatched_at, render_job_id, created_at FROM jobs
      WHERE workspace_id = $1 AND status NOT IN ('PUBLISHED', 'AWAITING_APPROVAL', 'RENDER_FAILED', 'POST_FAILED',
        'CANCELLED', 'REJECTED') ORDER BY created_at`,
    [workspaceId]
  )
  const deliveries = await query(
    rig.db.url,
    `SELECT d.id, d.via, d.event, d.state, d.attempt, d.owner, d.ingest_event_id, d.created_at, d.updated_at,
        d.next_attempt_at, array_agg(dp.post_id) AS posts
       FROM deliveries d LEFT JOIN delivery_posts dp ON dp.delivery_id = d.id
      WHERE d.workspace_id = $1 AND d.state IN ('PENDING', 'RETRYING') GROUP BY d.id ORDER BY d.created_at`,
    [workspaceId]
  )
  const channels = [...new Set(jobs.map((job) => String(job.channel_id)))]
  const messages = await query(
    rig.db.url,
    `SELECT id::text, entity_type, entity_id, tag, processed, payload, last_reply_id::text, last_read
       FROM cluster_messages WHERE NOT processed AND (entity_id = ANY($1) OR entity_type <> 'Channel') ORDER BY id`,
    [channels]
  )
  // The renders the stuck jobs wait on, and every message their runners were sent (answered or not).
  const renderIds = [...new Set(jobs.flatMap((job) => job.render_job_id === null ? [] : [String(job.render_job_id)]))]
  const renders = await query(
    rig.db.url,
    `SELECT id, state, attempt, error, submitted_at, started_at, finished_at FROM render_jobs WHERE id = ANY($1)`,
    [renderIds]
  )
  const runnerMessages = await query(
    rig.db.url,
    `SELECT m.id::text, m.entity_id, m.tag, m.processed, m.last_read, r.kind AS reply_kind
       FROM cluster_messages m LEFT JOIN cluster_replies r ON r.request_id = m.id
      WHERE m.entity_type = 'RenderRunner' AND m.entity_id = ANY($1) ORDER BY m.id`,
    [renderIds]
  )
  const sessions = await query(
    rig.db.url,
    `SELECT pid, state, xact_start, query_start, state_change, wait_event_type, wait_event, left(query, 300) AS query
       FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY xact_start`
  )
  const locks = await query(
    rig.db.url,
    `SELECT l.pid, l.mode, l.granted, c.relname FROM pg_locks l LEFT JOIN pg_class c ON c.oid = l.relation
      WHERE l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.pid <> pg_backend_pid()`
  )
  fs.writeFileSync(
    path.join(folder, "stuck.json"),
    JSON.stringify({ jobs, renders, runnerMessages, deliveries, messages, sessions, locks }, null, 2)
  )
  const olderThan10s = (at: unknown) => Date.now() - new Date(String(at)).getTime() > 10_000
  const oldTransactions = sessions.filter((s) => s.state === "idle in transaction" && olderThan10s(s.state_change))
  const longQueries = sessions.filter((s) => s.state === "active" && olderThan10s(s.query_start))
  // The summary goes into the run's own output (CI keeps nothing else).
  const summary = [
    `jobs ${JSON.stringify(countBy(jobs, (j) => `${j.status} ${j.channel_id}`))}`,
    `their renders ${JSON.stringify(renders.map((r) => `${r.id} ${r.state} attempt ${r.attempt}`))}`,
    `their runners' messages ${
      JSON.stringify(runnerMessages.map((m) =>
        `${m.entity_id} ${m.tag} processed=${m.processed} reply=${m.reply_kind ?? "none"}`
      ))
    }`,
    `unanswered messages ${JSON.stringify(countBy(messages, (m) => `${m.entity_type}/${m.tag}`))}`,
    `sessions idle in a transaction over 10 s: ${
      oldTransactions.map((s) => `${s.pid} (${s.query})`).join("; ") || "none"
    }`,
    `statements running over 10 s: ${longQueries.map((s) => `${s.pid} (${s.query})`).join("; ") || "none"}`,
    `locks waited on: ${locks.filter((l) => l.granted === false).length}`,
    `warnings and errors logged: ${JSON.stringify(loggedProblems(rig.nodes))}`,
    ...failed.map((line) => `this dump's own query failed: ${line}`)
  ]
  return { folder, summary }
}

/** The first `limit` errors the nodes logged, each in full (cut at 2,000 characters): what a count cannot say. */
export const loggedErrors = (nodes: ReadonlyArray<TestNode>, limit: number) =>
  nodes.flatMap((node) =>
    node.output().split("\n").filter((line) =>
      line.includes(`"logLevel":"ERROR"`) ||
      line.includes(`"logLevel":"FATAL"`)
    ).map((line) => `node ${node.process.pid}: ${line.slice(0, 2000)}`)
  ).slice(0, limit)

/** How often each warning and error was logged by the nodes (those running now). Nodes log JSON lines. */
export const loggedProblems = (nodes: ReadonlyArray<TestNode>) =>
  countBy(
    nodes.flatMap((node) =>
      node.output().split("\n").flatMap((line) => {
        try {
          const entry = JSON.parse(line) as { logLevel?: string; message?: unknown }
          return entry.logLevel === "WARN" || entry.logLevel === "ERROR" || entry.logLevel === "FATAL"
            ? [`${entry.logLevel} ${String(entry.message).slice(0, 100)}`]
            : []
        } catch {
          return []
        }
      })
    ),
    (message) => message
  )

const countBy = <A>(items: ReadonlyArray<A>, key: (item: A) => string) =>
  items.reduce<Record<string, number>>((counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }), {})
