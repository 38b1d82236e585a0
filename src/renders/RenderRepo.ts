import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { WorkspaceId } from "../domain/Principal.js"
import { ClipRecord } from "./ClipRecord.js"
import { RenderJobState, RenderOutputState, TERMINAL_STATES_SQL, TerminalState } from "./RenderJob.js"
import { RenderJobRecord } from "./RenderJobRecord.js"
import { RenderOutputRecord } from "./RenderOutputRecord.js"
import { RenderAhead } from "./RenderQueue.js"
import { aheadOf, renderOrder } from "./RenderQueueOrder.js"

/** What a job's creator says; the template columns and counts come from its package, the rest are defaults. */
export type NewRenderJob =
  & Pick<
    typeof RenderJobRecord.insert.Type,
    "id" | "origin" | "details" | "postTitle" | "package" | "templateName"
  >
  & { readonly contentKey?: string | null }
export type NewClip = Omit<typeof ClipRecord.insert.Type, "workspaceId">

const ById = Schema.Struct({ workspaceId: WorkspaceId, id: Schema.String })

/**
 * Render jobs, their outputs and their clips, as the render runner and export entities write them. Every method
 * names the workspace, except `findJobUnscoped` (a runner knows its render by id alone).
 */
const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const order = yield* renderOrder
  // An ended render stays ended: a second drawing of it (its node frozen past its shard lock, its work taken over)
  // writes nothing once the other has finished. Overwritten, it looked open for good and jobs sharing it waited forever.
  const open = (column: string) => sql`${sql(column)} NOT IN ${sql.literal(TERMINAL_STATES_SQL)}`
  const findJob = SqlSchema.findOne({
    Request: ById,
    Result: RenderJobRecord,
    execute: ({ id, workspaceId }) => sql`SELECT * FROM render_jobs WHERE id = ${id} AND workspace_id = ${workspaceId}`
  })
  // One statement, so one snapshot: the render to share (drawing, or finished while its clip is kept) and how many
  // renders ever drew these outputs. Read apart, a render inserted between the two reads made a second generation
  // of a video being drawn: drawn and counted twice.
  const byContent = SqlSchema.single({
    Request: Schema.Struct({ workspaceId: WorkspaceId, contentKey: Schema.String }),
    Result: Schema.Struct({
      generations: Schema.Number,
      reusableId: Schema.NullOr(Schema.String),
      reusableState: Schema.NullOr(RenderJobState)
    }),
    execute: ({ contentKey, workspaceId }) =>
      sql`WITH keyed AS (
            SELECT j.id, j.state, j.submitted_at,
                   j.state NOT IN ('FAILED', 'TIMED_OUT', 'CANCELLED')
                     AND (j.state NOT IN ('COMPLETED', 'PARTIAL')
                       OR EXISTS (SELECT 1 FROM clips c WHERE c.render_job_id = j.id AND c.stored)) AS reusable
              FROM render_jobs j WHERE j.workspace_id = ${workspaceId} AND j.content_key = ${contentKey})
          SELECT count(*)::int AS generations,
                 (array_agg(id ORDER BY submitted_at DESC) FILTER (WHERE reusable))[1] AS reusable_id,
                 (array_agg(state ORDER BY submitted_at DESC) FILTER (WHERE reusable))[1] AS reusable_state
            FROM keyed`
  })
  const findJobUnscoped = SqlSchema.findOne({
    Request: Schema.String,
    Result: RenderJobRecord,
    execute: (id) => sql`SELECT * FROM render_jobs WHERE id = ${id}`
  })
  const waitingAhead = SqlSchema.single({
    Request: ById,
    Result: RenderAhead,
    execute: ({ id, workspaceId }) => aheadOf(sql, order, workspaceId, id)
  })
  const insertJob = SqlSchema.void({
    Request: Schema.Struct({ job: RenderJobRecord.insert, outputs: Schema.Array(RenderOutputRecord.insert) }),
    execute: ({ job, outputs }) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO render_jobs ${sql.insert(job)} ON CONFLICT (id) DO NOTHING`
        for (const output of outputs) {
          yield* sql`INSERT INTO render_outputs ${sql.insert(output)} ON CONFLICT DO NOTHING`
        }
      }))
  })
  const setState = SqlSchema.findOne({
    Request: Schema.Struct({
      ...ById.fields,
      state: RenderJobState,
      error: Schema.optional(Schema.NullOr(Schema.String)),
      attempt: Schema.optional(Schema.Number)
    }),
    Result: Schema.Struct({ id: RenderJobRecord.fields.id }),
    execute: ({ attempt, error, id, state, workspaceId }) =>
      sql`UPDATE render_jobs SET state = ${state},
            error = ${error === undefined ? sql`error` : error},
            attempt = ${attempt === undefined ? sql`attempt` : attempt},
            started_at = CASE WHEN ${state} = 'RENDERING' AND started_at IS NULL THEN now() ELSE started_at END
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND ${open("state")}
          RETURNING id`
  })
  const finishIfOpen = SqlSchema.findOne({
    Request: Schema.Struct({ ...ById.fields, state: TerminalState, error: Schema.NullOr(Schema.String) }),
    Result: Schema.Struct({ id: RenderJobRecord.fields.id }),
    execute: ({ error, id, state, workspaceId }) =>
      sql`UPDATE render_jobs SET state = ${state}, error = ${error}, finished_at = now()
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND ${open("state")}
          RETURNING id`
  })
  const setOutput = SqlSchema.void({
    Request: Schema.Struct({
      ...ById.fields,
      ratio: Schema.String,
      locale: Schema.String,
      state: RenderOutputState,
      progress: Schema.Number,
      error: Schema.NullOr(Schema.String),
      clipId: Schema.NullOr(Schema.String)
    }),
    execute: (o) =>
      sql`UPDATE render_outputs o SET state = ${o.state}, progress = ${o.progress},
            error = ${o.error}, clip_id = coalesce(${o.clipId}, clip_id)
          FROM render_jobs j
          WHERE o.render_job_id = ${o.id} AND o.ratio = ${o.ratio} AND o.locale = ${o.locale}
            AND j.id = o.render_job_id AND j.workspace_id = ${o.workspaceId} AND ${open("j.state")}`
  })
  const refreshProgress = SqlSchema.void({
    Request: ById,
    // Progress is the mean over outputs, finished ones counting whole.
    execute: ({ id, workspaceId }) =>
      sql`UPDATE render_jobs j SET progress = o.mean, outputs_succeeded = o.succeeded
          FROM (SELECT avg(CASE WHEN state = 'succeeded' THEN 1 ELSE progress END) AS mean,
                       count(*) FILTER (WHERE state = 'succeeded')::int AS succeeded
                FROM render_outputs WHERE render_job_id = ${id}) o
          WHERE j.id = ${id} AND j.workspace_id = ${workspaceId} AND ${open("j.state")}`
  })
  const insertClip = SqlSchema.void({
    Request: ClipRecord.insert,
    execute: (clip) => sql`INSERT INTO clips ${sql.insert(clip)} ON CONFLICT (id) DO NOTHING`
  })

  return {
    findJob: (workspaceId: WorkspaceId, id: string) => Effect.orDie(findJob({ workspaceId, id })),
    /** By id alone: the render runner and export entities own the job whose id is their entity id. */
    findJobUnscoped: (id: string) => Effect.orDie(findJobUnscoped(id)),
    /** Renders served before this one in the cluster's fair order, every workspace's (the export's `ahead`). */
    ahead: (workspaceId: WorkspaceId, id: string) =>
      Effect.orDie(
        Effect.map(waitingAhead({ workspaceId, id }), (r) => r.otherWorkspaces + r.ownPipeline + r.ownExports)
      ),
    /** The job and one pending output per ratio × locale of its package; a job already there stays as it is. */
    /**
     * The render of these outputs to share (render once), if one is drawing or kept, and how many renders ever drew
     * them (failed and removed ones too): the generation a new render of them is.
     */
    byContent: (workspaceId: WorkspaceId, contentKey: string) =>
      Effect.map(Effect.orDie(byContent({ workspaceId, contentKey })), (row) => ({
        generation: row.generations,
        reusable: row.reusableId === null || row.reusableState === null
          ? Option.none()
          : Option.some({ id: row.reusableId, state: row.reusableState })
      })),
    insertJob: (workspaceId: WorkspaceId, job: NewRenderJob) =>
      Effect.orDie(insertJob({
        job: RenderJobRecord.insert.make({
          ...job,
          contentKey: job.contentKey ?? null,
          workspaceId,
          templateId: job.package.template.id,
          templateVariant: job.package.template.variant,
          templateVersion: job.package.template.version,
          priority: job.package.options.priority ? 1 : 0,
          outputsRequested: job.package.options.outputs.length
        }),
        outputs: job.package.options.outputs.map((o) =>
          RenderOutputRecord.insert.make({ renderJobId: job.id, ratio: o.ratio, locale: o.locale })
        )
      })),
    /** Moves an open render on (drawing steps); answers false, changing nothing, when it has ended. */
    setState: (
      workspaceId: WorkspaceId,
      id: string,
      state: RenderJobState,
      extra: { error?: string | null; attempt?: number } = {}
    ) => setState({ workspaceId, id, state, ...extra }).pipe(Effect.map(Option.isSome), Effect.orDie),
    /** Moves to a final state only from an open one; answers whether it moved (so a cancel wins once). */
    finishIfOpen: (workspaceId: WorkspaceId, id: string, state: TerminalState, error: string | null) =>
      finishIfOpen({ workspaceId, id, state, error }).pipe(Effect.map(Option.isSome), Effect.orDie),
    setOutput: (
      workspaceId: WorkspaceId,
      id: string,
      ratio: string,
      locale: string,
      o: { state: RenderOutputState; progress: number; error?: string | null; clipId?: string | null }
    ) =>
      Effect.orDie(setOutput({
        workspaceId,
        id,
        ratio,
        locale,
        state: o.state,
        progress: o.progress,
        error: o.error ?? null,
        clipId: o.clipId ?? null
      })),
    refreshProgress: (workspaceId: WorkspaceId, id: string) => Effect.orDie(refreshProgress({ workspaceId, id })),
    insertClip: (workspaceId: WorkspaceId, clip: NewClip) =>
      Effect.orDie(insertClip(ClipRecord.insert.make({ ...clip, workspaceId })))
  }
})

export class RenderRepo extends Context.Tag("clipwright/renders/RenderRepo")<
  RenderRepo,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(RenderRepo, make)
}
