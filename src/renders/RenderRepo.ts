import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { RenderPackage } from "./RenderJob.js"

export const RenderJobRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  origin: Schema.String,
  details: Schema.String,
  postTitle: Schema.NullOr(Schema.String),
  templateId: Schema.String,
  templateName: Schema.String,
  templateVariant: Schema.String,
  templateVersion: Schema.String,
  state: Schema.String,
  priority: Schema.Number,
  outputsRequested: Schema.Number,
  outputsSucceeded: Schema.Number,
  progress: Schema.Number,
  attempt: Schema.Number,
  error: Schema.NullOr(Schema.String),
  package: RenderPackage,
  submittedAt: Schema.DateFromSelf,
  startedAt: Schema.NullOr(Schema.DateFromSelf),
  finishedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type RenderJobRow = typeof RenderJobRow.Type

export const RenderOutputRow = Schema.Struct({
  renderJobId: Schema.String,
  ratio: Schema.String,
  locale: Schema.String,
  state: Schema.String,
  progress: Schema.Number,
  error: Schema.NullOr(Schema.String),
  clipId: Schema.NullOr(Schema.String)
})
export type RenderOutputRow = typeof RenderOutputRow.Type

export interface NewRenderJob {
  readonly id: string
  readonly workspaceId: string
  readonly origin: string
  readonly details: string
  readonly postTitle: string | null
  readonly package: RenderPackage
  readonly templateName: string
}

export interface NewClip {
  readonly id: string
  readonly workspaceId: string
  readonly renderJobId: string
  readonly ratio: string
  readonly locale: string
  readonly width: number
  readonly height: number
  readonly durationMs: number
  readonly byteSize: number
  readonly sha256: string
  readonly blobKey: string
}

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const findJob = SqlSchema.findOne({
    Request: Schema.String,
    Result: RenderJobRow,
    execute: (id) => sql`SELECT * FROM render_jobs WHERE id = ${id}`
  })
  const outputsOf = SqlSchema.findAll({
    Request: Schema.String,
    Result: RenderOutputRow,
    execute: (id) => sql`SELECT * FROM render_outputs WHERE render_job_id = ${id} ORDER BY ratio, locale`
  })
  const waitingAhead = SqlSchema.single({
    Request: Schema.String,
    Result: Schema.Struct({ n: Schema.Number }),
    execute: (id) =>
      sql`SELECT count(*)::int AS n FROM render_jobs w, render_jobs me
          WHERE me.id = ${id} AND w.state IN ('PENDING', 'SUBMITTED') AND w.id <> me.id
            AND (w.priority > me.priority OR (w.priority = me.priority AND w.submitted_at < me.submitted_at))`
  })
  const waitingCount = SqlSchema.single({
    Request: Schema.Void,
    Result: Schema.Struct({ n: Schema.Number }),
    execute: () => sql`SELECT count(*)::int AS n FROM render_jobs WHERE state IN ('PENDING', 'SUBMITTED')`
  })

  return {
    findJob: (id: string) => Effect.orDie(findJob(id)),
    outputsOf: (id: string) => Effect.orDie(outputsOf(id)),
    /** Renders waiting for a slot before this one, across the whole cluster (the export's `ahead`). */
    ahead: (id: string) => Effect.orDie(Effect.map(waitingAhead(id), (r) => r.n)),
    waiting: Effect.orDie(Effect.map(waitingCount(undefined), (r) => r.n)),
    insertJob: (job: NewRenderJob) =>
      Effect.orDie(sql.withTransaction(Effect.gen(function*() {
        const p = job.package
        yield* sql`INSERT INTO render_jobs ${
          sql.insert({
            id: job.id,
            workspaceId: job.workspaceId,
            origin: job.origin,
            details: job.details,
            postTitle: job.postTitle,
            templateId: p.template.id,
            templateName: job.templateName,
            templateVariant: p.template.variant,
            templateVersion: p.template.version,
            priority: p.options.priority ? 1 : 0,
            outputsRequested: p.options.outputs.length,
            package: JSON.stringify(p)
          })
        } ON CONFLICT (id) DO NOTHING`
        for (const o of p.options.outputs) {
          yield* sql`INSERT INTO render_outputs ${sql.insert({ renderJobId: job.id, ratio: o.ratio, locale: o.locale })}
            ON CONFLICT DO NOTHING`
        }
      }))),
    setState: (id: string, state: string, extra: { error?: string | null; attempt?: number } = {}) =>
      Effect.orDie(sql`UPDATE render_jobs SET state = ${state},
          error = ${extra.error === undefined ? sql`error` : extra.error},
          attempt = ${extra.attempt === undefined ? sql`attempt` : extra.attempt},
          started_at = CASE WHEN ${state} = 'RENDERING' AND started_at IS NULL THEN now() ELSE started_at END,
          finished_at = CASE WHEN ${state} IN ('COMPLETED', 'PARTIAL', 'FAILED', 'TIMED_OUT', 'CANCELLED')
            THEN now() ELSE finished_at END
        WHERE id = ${id}`),
    /** Moves to a state only from a non-terminal one; answers whether it moved (so a cancel wins once). */
    finishIfOpen: (id: string, state: string, error: string | null) =>
      sql`UPDATE render_jobs SET state = ${state}, error = ${error}, finished_at = now()
          WHERE id = ${id} AND state NOT IN ('COMPLETED', 'PARTIAL', 'FAILED', 'TIMED_OUT', 'CANCELLED')
          RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
    setOutput: (id: string, ratio: string, locale: string, o: { state: string; progress: number; error?: string | null; clipId?: string | null }) =>
      Effect.orDie(sql`UPDATE render_outputs SET state = ${o.state}, progress = ${o.progress},
          error = ${o.error ?? null}, clip_id = coalesce(${o.clipId ?? null}, clip_id)
        WHERE render_job_id = ${id} AND ratio = ${ratio} AND locale = ${locale}`),
    /** Progress is the mean over outputs, finished ones counting whole. */
    refreshProgress: (id: string) =>
      Effect.orDie(sql`UPDATE render_jobs j SET
          progress = o.mean, outputs_succeeded = o.succeeded
        FROM (SELECT avg(CASE WHEN state = 'succeeded' THEN 1 ELSE progress END) AS mean,
                     count(*) FILTER (WHERE state = 'succeeded')::int AS succeeded
              FROM render_outputs WHERE render_job_id = ${id}) o
        WHERE j.id = ${id}`),
    insertClip: (clip: NewClip) => Effect.orDie(sql`INSERT INTO clips ${sql.insert({ ...clip })} ON CONFLICT (id) DO NOTHING`)
  }
})

export class RenderRepo extends Context.Tag("clipwright/sql/RenderRepo")<RenderRepo, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(RenderRepo, make)
}
