import { Context, Effect, Layer, Option } from "effect"
import { NotFound } from "../domain/Errors.js"
import type { Origin } from "../domain/Origin.js"
import type { WorkspaceId } from "../domain/Principal.js"
import type { IngestStatus } from "./IngestEventRecord.js"
import { IngestEventsQuery } from "./IngestEventsQuery.js"
import { detailView, type IngestEventPage, type IngestEventsParams, listedView } from "./IngestEventViews.js"

/** The ingest log (`GET /v1/ingest-events`) and one event with its jobs; reads only SQL. */
const make = Effect.gen(function*() {
  const query = yield* IngestEventsQuery

  const list = Effect.fn("IngestEvents.list")(function*(workspaceId: WorkspaceId, params: IngestEventsParams) {
    const { origin, perPage, q, status } = params
    const [rows, counts, all] = yield* Effect.all([
      query.page(workspaceId, { status, origin, q }, perPage, (params.page - 1) * perPage),
      query.counts(workspaceId, q),
      // Without `q` the facets' counts already cover every event.
      q === undefined ? Effect.succeed(undefined) : query.countAll(workspaceId)
    ], { concurrency: "unbounded" })
    // Every key is listed, 0 when no event has it, so the block always has one shape.
    const byStatus: Record<IngestStatus, number> = { ACCEPTED: 0, NO_MATCH: 0, UNMAPPED: 0, STALE: 0 }
    const byOrigin: Record<Origin, number> = { shipped: 0, custom: 0, manual: 0 }
    let total = 0
    for (const c of counts) {
      byStatus[c.status] += c.n
      byOrigin[c.origin] += c.n
      if ((status === undefined || c.status === status) && (origin === undefined || c.origin === origin)) total += c.n
    }
    return {
      events: rows.map(listedView),
      total,
      all: all ?? counts.reduce((sum, c) => sum + c.n, 0),
      page: params.page,
      perPage,
      facets: { status: byStatus, origin: byOrigin }
    } satisfies IngestEventPage
  })

  /** Another workspace's event answers exactly like a missing one. */
  const show = Effect.fn("IngestEvents.show")(function*(workspaceId: WorkspaceId, id: string) {
    const row = yield* query.find(workspaceId, id)
    if (Option.isNone(row)) return yield* new NotFound({ message: `No ingest event ${id}.` })
    return detailView(row.value, yield* query.jobsOf(workspaceId, row.value.id))
  })

  return { list, show }
})

export class IngestEvents extends Context.Tag("clipwright/ingest/IngestEvents")<
  IngestEvents,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(IngestEvents, make)
}
