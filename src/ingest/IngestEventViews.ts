import { Schema } from "effect"
import { Origin } from "../domain/Origin.js"
import { pagingParams } from "../http/Paging.js"
import { IngestInput, IngestStatus, Problem } from "./IngestEventRecord.js"
import type { EventJob, FoundEvent, ListedEvent } from "./IngestEventsQuery.js"

/** `GET /v1/ingest-events` query: filters, a free-text search and the page. */
export const IngestEventsParams = Schema.Struct({
  status: Schema.optional(IngestStatus).annotations({ description: "Only events with this status." }),
  origin: Schema.optional(Origin).annotations({ description: "Only events of this origin." }),
  q: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).annotations({
    description: "1 to 200 characters, matched case-insensitively inside `details`, `postTitle`, `eventId` or `id`."
  }),
  ...pagingParams(25)
})
export type IngestEventsParams = typeof IngestEventsParams.Type

/** SPEC "Ingest event row", with what carried the event in. */
const rowFields = {
  id: Schema.String,
  origin: Origin,
  details: Schema.String,
  postTitle: Schema.NullOr(Schema.String),
  eventId: Schema.String,
  status: IngestStatus,
  occurredAt: Schema.String,
  receivedAt: Schema.String,
  input: IngestInput,
  streamId: Schema.NullOr(Schema.String),
  feedId: Schema.NullOr(Schema.String)
}

export const IngestEventRow = Schema.Struct({
  ...rowFields,
  jobs: Schema.Number.annotations({ description: "How many jobs (post groups) the event produced." })
})
export type IngestEventRow = typeof IngestEventRow.Type

const count = Schema.Number
export const StatusFacets = Schema.Struct({ ACCEPTED: count, NO_MATCH: count, UNMAPPED: count, STALE: count })
export const OriginFacets = Schema.Struct({ shipped: count, custom: count, manual: count })

export const IngestEventPage = Schema.Struct({
  events: Schema.Array(IngestEventRow),
  total: Schema.Number,
  all: Schema.Number,
  page: Schema.Number,
  perPage: Schema.Number,
  facets: Schema.Struct({ status: StatusFacets, origin: OriginFacets })
})
export type IngestEventPage = typeof IngestEventPage.Type

/** One job (post group) an event produced, on one channel. */
export const IngestEventJob = Schema.Struct({
  id: Schema.String,
  postGroupId: Schema.String,
  channelId: Schema.String,
  channelName: Schema.String,
  status: Schema.String,
  ratio: Schema.String,
  locale: Schema.String,
  templateId: Schema.String,
  templateVariant: Schema.NullOr(Schema.String),
  templateVersion: Schema.NullOr(Schema.String),
  scheduledFor: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type IngestEventJob = typeof IngestEventJob.Type

export const IngestEventDetail = Schema.Struct({
  event: Schema.Struct({
    ...rowFields,
    locale: Schema.NullOr(Schema.String),
    data: Schema.Unknown.annotations({ description: "The content as it was posted." }),
    document: Schema.NullOr(Schema.Unknown).annotations({ description: "The document after the field map." }),
    mappingErrors: Schema.NullOr(Schema.Array(Problem)),
    warnings: Schema.Array(Problem),
    broadcastId: Schema.NullOr(Schema.String),
    publishAt: Schema.NullOr(Schema.String),
    timezone: Schema.NullOr(Schema.String),
    jobs: Schema.Array(IngestEventJob)
  })
})
export type IngestEventDetail = typeof IngestEventDetail.Type

const iso = (date: Date | null) => date?.toISOString() ?? null

const rowOf = (row: ListedEvent) => ({
  id: row.id,
  origin: row.origin,
  details: row.details,
  postTitle: row.postTitle,
  eventId: row.eventId,
  status: row.status,
  occurredAt: row.occurredAt.toISOString(),
  receivedAt: row.receivedAt.toISOString(),
  input: row.input,
  streamId: row.streamId,
  feedId: row.feedId
})

export const listedView = (row: ListedEvent): IngestEventRow => ({ ...rowOf(row), jobs: row.jobs })

const jobView = (job: EventJob): IngestEventJob => ({
  id: job.id,
  postGroupId: job.id,
  channelId: job.channelId,
  channelName: job.channelName,
  status: job.status,
  ratio: job.ratio,
  locale: job.locale,
  templateId: job.templateId,
  templateVariant: job.templateVariant,
  templateVersion: job.templateVersion,
  scheduledFor: iso(job.scheduledFor),
  createdAt: job.createdAt.toISOString()
})

export const detailView = (row: FoundEvent, jobs: ReadonlyArray<EventJob>): IngestEventDetail => ({
  event: {
    ...rowOf({ ...row, details: row.printedDetails, jobs: jobs.length }),
    locale: row.locale,
    data: row.data,
    document: row.normalized,
    mappingErrors: row.mappingErrors,
    warnings: row.warnings,
    broadcastId: row.broadcastId,
    publishAt: iso(row.publishAt),
    timezone: row.timezone,
    jobs: jobs.map(jobView)
  }
})
