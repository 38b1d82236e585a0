import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { WorkspaceId } from "../../domain/Principal.js"

/** At most one approval-request email per workspace in this many seconds. */
export const REQUEST_WINDOW_SECONDS = 300
/** Workspaces looked at per sweep: the rest wait for the next one. */
const WORKSPACES_PER_SWEEP = 20
/** Posts listed in one email; more are counted and reached through the console's list. */
export const POSTS_PER_MAIL = 50

export const WaitingPost = Schema.Struct({
  approvalId: Schema.String,
  title: Schema.NullOr(Schema.String),
  channelName: Schema.String,
  scheduledFor: Schema.NullOr(Schema.DateFromSelf)
})
export type WaitingPost = typeof WaitingPost.Type

/**
 * Approval requests by email, held in PostgreSQL: which pending approvals no email listed yet (`announced_at`), and
 * when each workspace was last emailed (`approval_request_mails`). Every query is by the workspace.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const due = SqlSchema.findAll({
    Request: Schema.Void,
    Result: Schema.Struct({ workspaceId: WorkspaceId }),
    execute: () =>
      sql`SELECT DISTINCT a.workspace_id FROM approvals a
          WHERE a.state = 'PENDING' AND a.announced_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM approval_request_mails m WHERE m.workspace_id = a.workspace_id
              AND m.sent_at > now() - make_interval(secs => ${REQUEST_WINDOW_SECONDS}))
          LIMIT ${WORKSPACES_PER_SWEEP}`
  })
  // The upsert takes the workspace's row lock: a second node waits, then finds the window taken and gets no row.
  const claim = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: Schema.Struct({ workspaceId: WorkspaceId }),
    execute: (workspaceId) =>
      sql`INSERT INTO approval_request_mails (workspace_id, sent_at) VALUES (${workspaceId}, now())
          ON CONFLICT (workspace_id) DO UPDATE SET sent_at = excluded.sent_at
            WHERE approval_request_mails.sent_at <= now() - make_interval(secs => ${REQUEST_WINDOW_SECONDS})
          RETURNING workspace_id`
  })
  const announce = SqlSchema.findAll({
    Request: WorkspaceId,
    Result: WaitingPost,
    execute: (workspaceId) =>
      sql`WITH told AS (
            UPDATE approvals SET announced_at = now()
            WHERE workspace_id = ${workspaceId} AND state = 'PENDING' AND announced_at IS NULL
            RETURNING id, job_id, channel_id, requested_at)
          SELECT t.id AS approval_id, p.title, c.name AS channel_name, p.scheduled_for
          FROM told t JOIN channels c ON c.id = t.channel_id LEFT JOIN posts p ON p.job_id = t.job_id
          ORDER BY t.requested_at, t.id`
  })
  const audience = SqlSchema.single({
    Request: WorkspaceId,
    Result: Schema.Struct({ name: Schema.String, recipients: Schema.Array(Schema.String) }),
    execute: (workspaceId) =>
      sql`SELECT w.name, array_remove(array(
              SELECT DISTINCT email FROM (
                SELECT w.owner_email AS email
                UNION SELECT m.email FROM members m WHERE m.workspace_id = w.id AND m.role IN ('owner', 'operations')
              ) people WHERE email IS NOT NULL ORDER BY email), NULL) AS recipients
          FROM workspaces w WHERE w.id = ${workspaceId}`
  })
  return {
    /** Workspaces with approvals no email listed yet whose window is open. */
    due: Effect.orDie(due(undefined)),
    /** Takes the workspace's window; false when another node took it first or it is still closed. */
    claim: (workspaceId: WorkspaceId) => Effect.map(claim(workspaceId), (rows) => rows.length > 0),
    /** Marks the workspace's unannounced pending approvals as listed; answers them, oldest first. */
    announce: (workspaceId: WorkspaceId) => announce(workspaceId),
    /** The workspace's name and who is asked: its owner and Operations members. */
    audience: (workspaceId: WorkspaceId) => audience(workspaceId),
    withTransaction: sql.withTransaction
  }
})

export class ApprovalRequestsRepo extends Context.Tag("clipwright/publishing/approvals/ApprovalRequestsRepo")<
  ApprovalRequestsRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(ApprovalRequestsRepo, make)
}
