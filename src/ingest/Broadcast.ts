import { Schema } from "effect"
import { pagingParams } from "../http/Paging.js"

export const BroadcastsQuery = Schema.Struct({
  ...pagingParams(20)
})

export const BroadcastSummary = Schema.Struct({
  id: Schema.String,
  eventId: Schema.String,
  sourceSlug: Schema.String,
  formatSlug: Schema.String,
  feedId: Schema.String,
  status: Schema.Literal("accepted", "stale"),
  occurredAt: Schema.String,
  receivedAt: Schema.String,
  workspaces: Schema.Number
})

/** What one workspace made of the broadcast: its own event (null when it had used the eventId for another). */
export const BroadcastDelivery = Schema.Struct({
  accountId: Schema.String,
  ingestEventId: Schema.NullOr(Schema.String),
  status: Schema.Literal("accepted", "no_match", "stale", "duplicate", "conflict"),
  matched: Schema.Number
})

export const BroadcastAnswer = Schema.Struct({
  broadcastId: Schema.String,
  requestId: Schema.String,
  eventId: Schema.String,
  status: Schema.Literal("accepted", "stale", "duplicate"),
  idempotent: Schema.Boolean,
  workspaces: Schema.Array(BroadcastDelivery)
})

export const BroadcastValidateAnswer = Schema.Struct({
  requestId: Schema.String,
  valid: Schema.Boolean,
  stale: Schema.Boolean,
  feedId: Schema.String,
  workspaces: Schema.Number,
  normalized: Schema.Unknown
})

export const BroadcastDetail = Schema.Struct({
  broadcast: Schema.Struct({
    ...BroadcastSummary.fields,
    locale: Schema.NullOr(Schema.String),
    data: Schema.Unknown,
    events: Schema.Array(Schema.Struct({
      accountId: Schema.String,
      ingestEventId: Schema.String,
      status: Schema.String,
      jobs: Schema.Number
    }))
  })
})

export const BroadcastPage = Schema.Struct({
  broadcasts: Schema.Array(BroadcastSummary),
  total: Schema.Number,
  page: Schema.Number,
  perPage: Schema.Number
})
