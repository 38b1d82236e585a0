import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { Approval } from "../../channels/Channel.js"
import { WorkspaceId } from "../../domain/Principal.js"
import { finished, JobStatus } from "../../posts/JobStatus.js"
import { type StatusStepName, statusStepNames, statusSteps } from "../../posts/JobStatusSteps.js"
import { PostRecord } from "../../posts/PostRecord.js"
import { ApprovalRecord } from "./ApprovalRecord.js"
import { JobRecord } from "./JobRecord.js"

/** What starting a job needs: the job, its event's document, and its channel and brand as they are now. */
export const JobToStart = Schema.Struct({
  ...JobRecord.select.pick(
    "id",
    "workspaceId",
    "channelId",
    "status",
    "origin",
    "templateId",
    "templateVariant",
    "templateVersion",
    "ratio",
    "locale",
    "scheduledFor",
    "renderJobId"
  ).fields,
  content: Schema.Unknown,
  eventDetails: Schema.String,
  postTitle: Schema.NullOr(Schema.String),
  channelName: Schema.String,
  surface: Schema.String,
  approval: Approval,
  brandId: Schema.String,
  brandName: Schema.String,
  brandUpdatedAt: Schema.DateFromSelf
})
export type JobToStart = typeof JobToStart.Type

const ById = JobRecord.select.pick("workspaceId", "id")
const Claimed = Schema.Struct({
  ...JobRecord.select.pick("id", "workspaceId", "channelId").fields,
  dispatchedAt: Schema.DateFromSelf,
  /** The trace of the request that brought the job's event in. */
  traceParent: Schema.NullOr(Schema.String)
})
export type ClaimedJob = typeof Claimed.Type

/**
 * Jobs, their posts and approvals, as the channel's entity makes and moves them (the steps of JobStatusSteps it
 * takes; its header says who else writes these rows), plus the dispatcher's claim on jobs waiting to start.
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const toStart = SqlSchema.findOne({
    Request: ById,
    Result: JobToStart,
    execute: ({ id, workspaceId }) =>
      sql`SELECT j.id, j.workspace_id, j.channel_id, j.status, j.origin, j.template_id, j.template_variant,
            j.template_version, j.ratio, j.locale, j.scheduled_for, j.render_job_id,
            e.normalized AS content, e.details AS event_details, e.post_title,
            c.name AS channel_name, c.surface, c.approval, c.brand_id, b.name AS brand_name,
            b.updated_at AS brand_updated_at
          FROM jobs j
          JOIN ingest_events e ON e.id = j.ingest_event_id
          JOIN channels c ON c.id = j.channel_id
          JOIN brands b ON b.id = c.brand_id
          WHERE j.workspace_id = ${workspaceId} AND j.id = ${id}`
  })
  const move = SqlSchema.findAll({
    Request: Schema.Struct({
      ...ById.fields,
      step: Schema.Literal(...statusStepNames),
      renderJobId: Schema.optional(Schema.String),
      error: Schema.optional(Schema.String),
      scheduledFor: Schema.optional(Schema.DateFromSelf)
    }),
    Result: Schema.Struct({ id: Schema.String }),
    // The post (once there is one) is in its job's state: both move in one statement.
    execute: (r) => {
      const { from, to } = statusSteps[r.step]
      return sql`WITH moved AS (UPDATE jobs SET status = ${to}, updated_at = now(),
            render_job_id = ${r.renderJobId === undefined ? sql`render_job_id` : r.renderJobId},
            error = ${r.error === undefined ? sql`error` : r.error},
            scheduled_for = ${r.scheduledFor === undefined ? sql`scheduled_for` : r.scheduledFor},
            finished_at = ${finished.has(to) ? sql`now()` : sql`finished_at`}
          WHERE workspace_id = ${r.workspaceId} AND id = ${r.id} AND status IN ${sql.in(from)}
          RETURNING id), posted AS (
            UPDATE posts SET state = ${to}, updated_at = now() WHERE job_id IN (SELECT id FROM moved) RETURNING 1)
          SELECT id FROM moved`
    }
  })
  const insertPost = SqlSchema.void({
    Request: PostRecord.insert,
    execute: (post) => sql`INSERT INTO posts ${sql.insert(post)} ON CONFLICT (job_id) DO NOTHING`
  })
  const insertApproval = SqlSchema.void({
    Request: ApprovalRecord.insert,
    execute: (approval) => sql`INSERT INTO approvals ${sql.insert(approval)} ON CONFLICT (job_id) DO NOTHING`
  })
  const decide = SqlSchema.findOne({
    Request: Schema.Struct({
      ...ById.fields,
      state: Schema.Literal("APPROVED", "REJECTED"),
      note: Schema.NullOr(Schema.String),
      decidedBy: Schema.NullOr(Schema.String)
    }),
    Result: Schema.Struct({ jobId: Schema.String }),
    execute: ({ decidedBy, id, note, state, workspaceId }) =>
      sql`UPDATE approvals SET state = ${state}, note = ${note}, decided_by = ${decidedBy}, decided_at = now()
          WHERE workspace_id = ${workspaceId} AND id = ${id} AND state = 'PENDING'
          RETURNING job_id`
  })
  const postsOf = SqlSchema.findAll({
    Request: ById,
    Result: PostRecord.select.pick("id", "state"),
    execute: ({ id, workspaceId }) =>
      sql`SELECT id, state FROM posts WHERE workspace_id = ${workspaceId} AND job_id = ${id}`
  })
  const sharing = SqlSchema.single({
    Request: Schema.Struct({ ...ById.fields, renderJobId: Schema.String }),
    Result: Schema.Struct({ n: Schema.Number }),
    execute: ({ id, renderJobId, workspaceId }) =>
      sql`SELECT count(*)::int AS n FROM jobs
          WHERE workspace_id = ${workspaceId} AND render_job_id = ${renderJobId} AND id <> ${id}
            AND status = 'AWAITING_RENDERING'`
  })
  const openOf = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, channelId: Schema.String, open: Schema.Array(JobStatus) }),
    Result: JobRecord.select.pick("id", "status", "renderJobId"),
    execute: ({ channelId, open, workspaceId }) =>
      sql`SELECT id, status, render_job_id FROM jobs
          WHERE workspace_id = ${workspaceId} AND channel_id = ${channelId} AND status IN ${sql.in(open)}`
  })
  const claim = SqlSchema.findAll({
    Request: Schema.Struct({ limit: Schema.Number, againAfterSeconds: Schema.Number }),
    Result: Claimed,
    execute: ({ againAfterSeconds, limit }) =>
      sql`UPDATE jobs SET dispatched_at = now()
          WHERE id IN (
            SELECT id FROM jobs
            WHERE status = 'ACCEPTED'
              AND (dispatched_at IS NULL OR dispatched_at < now() - make_interval(secs => ${againAfterSeconds}))
            ORDER BY created_at LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          RETURNING id, workspace_id, channel_id, dispatched_at,
            (SELECT e.trace_parent FROM ingest_events e WHERE e.id = jobs.ingest_event_id) AS trace_parent`
  })
  const waitingOn = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: WorkspaceId, renderJobId: Schema.String }),
    Result: Schema.Struct({ id: Schema.String, channelId: Schema.String, renderError: Schema.NullOr(Schema.String) }),
    execute: ({ renderJobId, workspaceId }) =>
      sql`SELECT j.id, j.channel_id, r.error AS render_error
          FROM jobs j JOIN render_jobs r ON r.id = j.render_job_id
          WHERE j.workspace_id = ${workspaceId} AND j.render_job_id = ${renderJobId} AND j.status = 'AWAITING_RENDERING'`
  })
  // A repost is the same event on the same channel once more; a retried request finds the job it made.
  const repost = SqlSchema.single({
    Request: Schema.Struct({ ...ById.fields, newId: Schema.String, requestId: Schema.String }),
    Result: Schema.Struct({ id: Schema.String }),
    execute: ({ id, newId, requestId, workspaceId }) =>
      sql`WITH made AS (
            INSERT INTO jobs (id, workspace_id, ingest_event_id, channel_id, subscription_id, origin, status, template_id,
              template_variant, template_version, ratio, locale, repost_of, repost_request)
            SELECT ${newId}, workspace_id, ingest_event_id, channel_id, subscription_id, origin, ${statusSteps.repost.to}, template_id,
              template_variant, template_version, ratio, locale, id, ${requestId}
            FROM jobs WHERE workspace_id = ${workspaceId} AND id = ${id}
            ON CONFLICT (repost_of, repost_request) WHERE repost_of IS NOT NULL DO NOTHING
            RETURNING id)
          SELECT id FROM made
          UNION ALL SELECT id FROM jobs WHERE repost_of = ${id} AND repost_request = ${requestId}
          LIMIT 1`
  })

  return {
    /** A new job repeating `id` (ACCEPTED, for the dispatcher); answers the job, the one made before on a retry. */
    repost: (workspaceId: WorkspaceId, id: string, newId: string, requestId: string) =>
      Effect.map(Effect.orDie(repost({ workspaceId, id, newId, requestId })), (row) => row.id),
    findToStart: (workspaceId: WorkspaceId, id: string) => Effect.orDie(toStart({ workspaceId, id })),
    /**
     * Takes a step of the job's machine (JobStatusSteps): moves the job and its post to the step's status if the job
     * is in one of the step's from-statuses; answers false when it was not (moved already, or by another end).
     */
    move: (
      workspaceId: WorkspaceId,
      id: string,
      step: StatusStepName,
      also: { renderJobId?: string; error?: string; scheduledFor?: Date } = {}
    ) => Effect.map(Effect.orDie(move({ workspaceId, id, step, ...also })), (rows) => rows.length > 0),
    insertPost: (post: typeof PostRecord.insert.Type) => Effect.orDie(insertPost(post)),
    insertApproval: (approval: typeof ApprovalRecord.insert.Type) => Effect.orDie(insertApproval(approval)),
    /**
     * Across workspaces, for the dispatcher: up to `limit` jobs waiting to start that no node handed over in the last
     * `againAfterSeconds` (a node that died after claiming leaves them to the next claim).
     */
    claimWaitingAnyWorkspace: (limit: number, againAfterSeconds: number) =>
      Effect.orDie(claim({ limit, againAfterSeconds })),
    /** The jobs waiting on a render, with the render's error. */
    waitingOn: (workspaceId: WorkspaceId, renderJobId: string) => Effect.orDie(waitingOn({ workspaceId, renderJobId })),
    /** The channel's jobs in one of the `open` statuses. */
    openJobsOf: (workspaceId: WorkspaceId, channelId: string, open: ReadonlyArray<JobStatus>) =>
      Effect.orDie(openOf({ workspaceId, channelId, open })),
    /** Decides a pending approval; answers its job, or None when it was decided already. */
    decideApproval: (
      workspaceId: WorkspaceId,
      id: string,
      decision: { state: "APPROVED" | "REJECTED"; note: string | null; decidedBy: string | null }
    ) => Effect.orDie(decide({ workspaceId, id, ...decision })),
    postsOf: (workspaceId: WorkspaceId, jobId: string) => Effect.orDie(postsOf({ workspaceId, id: jobId })),
    /** Other jobs still waiting on the render: a cancel leaves a shared render drawing for them. */
    othersWaitingOn: (workspaceId: WorkspaceId, jobId: string, renderJobId: string) =>
      Effect.map(Effect.orDie(sharing({ workspaceId, id: jobId, renderJobId })), (row) => row.n),
    withTransaction: sql.withTransaction
  }
})

export class JobRepo
  extends Context.Tag("clipwright/publishing/states/JobRepo")<JobRepo, Effect.Effect.Success<typeof make>>()
{
  static readonly layer = Layer.effect(JobRepo, make)
}
