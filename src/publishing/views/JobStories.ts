import { Context, Effect, Layer, Option } from "effect"
import { NotFound } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Principal.js"
import type { JobStatus } from "../../posts/JobStatus.js"
import { deletableFrom, derivedStatuses, isFrom, repostableFrom, updatableFrom } from "../../posts/JobStatusSteps.js"
import { type HandOverRow, JobStoryQuery, type JobStoryRow } from "./JobStoryQuery.js"

const iso = (date: Date | null) => date?.toISOString() ?? null

export interface HandOverAttempt {
  readonly attempt: number
  readonly redelivery: boolean
  readonly startedAt: string
  readonly durationMs: number
  readonly statusCode: number | null
  readonly error: string | null
}

/** One delivery that carried the job's post: a publish, or a change or removal asked for later. */
export interface HandOver {
  readonly id: string
  readonly via: string
  readonly event: string
  readonly state: string
  readonly nextAttemptAt: string | null
  readonly deliveredAt: string | null
  readonly createdAt: string
  readonly attempts: ReadonlyArray<HandOverAttempt>
}

/** A job's whole story: the row with its parts, what it accepts now, and each hand-over with its attempts. */
export interface JobStory {
  readonly job: JobStoryRow
  readonly cancellable: boolean
  readonly updatable: boolean
  readonly repostable: boolean
  readonly deletable: boolean
  readonly handOvers: ReadonlyArray<HandOver>
}

const handOversOf = (rows: ReadonlyArray<HandOverRow>): ReadonlyArray<HandOver> => {
  const byId = new Map<string, HandOver & { attempts: Array<HandOverAttempt> }>()
  for (const row of rows) {
    let d = byId.get(row.id)
    if (d === undefined) {
      d = {
        id: row.id,
        via: row.via,
        event: row.event,
        state: row.state,
        nextAttemptAt: iso(row.nextAttemptAt),
        deliveredAt: iso(row.deliveredAt),
        createdAt: row.createdAt.toISOString(),
        attempts: []
      }
      byId.set(row.id, d)
    }
    if (row.attempt !== null && row.startedAt !== null) {
      d.attempts.push({
        attempt: row.attempt,
        redelivery: row.redelivery ?? false,
        startedAt: row.startedAt.toISOString(),
        durationMs: row.durationMs ?? 0,
        statusCode: row.statusCode,
        error: row.attemptError
      })
    }
  }
  return [...byId.values()]
}

/** One job as its console page tells it; SQL only, never wakes an entity. */
const make = Effect.gen(function*() {
  const query = yield* JobStoryQuery

  /** Another workspace's job answers exactly like a missing one. */
  const story = Effect.fn("JobStories.story")(function*(workspaceId: WorkspaceId, id: string) {
    const found = yield* query.story(workspaceId, id)
    if (Option.isNone(found)) return yield* new NotFound({ message: `No job ${id}.` })
    const job = found.value
    const rows = job.postId === null ? [] : yield* query.handOvers(workspaceId, job.postId)
    const status: JobStatus = job.status
    return {
      job,
      // RENDERING and DOWNLOADING are a stored AWAITING_RENDERING, which a cancel stops.
      cancellable: isFrom("cancel", status) || derivedStatuses.includes(status),
      updatable: updatableFrom.includes(status),
      repostable: repostableFrom.includes(status),
      deletable: deletableFrom.includes(status),
      handOvers: handOversOf(rows)
    } satisfies JobStory
  })

  return { story }
})

export class JobStories extends Context.Tag("clipwright/publishing/views/JobStories")<
  JobStories,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(JobStories, make).pipe(Layer.provide(JobStoryQuery.layer))
}
