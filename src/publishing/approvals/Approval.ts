import { Schema } from "effect"
import { pagingParams } from "../../http/Paging.js"
import { ApprovalState } from "../states/ApprovalRecord.js"

export const ApprovalsParams = Schema.Struct({
  state: Schema.optional(ApprovalState).annotations({ description: "Only approvals in this state." }),
  channelId: Schema.optional(Schema.String.pipe(Schema.maxLength(64))).annotations({
    description: "Only approvals of this channel."
  }),
  ...pagingParams(25)
})
export type ApprovalsParams = typeof ApprovalsParams.Type

export const Asset = Schema.Struct({ assetId: Schema.String, url: Schema.String, expiresAt: Schema.String })

export const ApprovalView = Schema.Struct({
  id: Schema.String,
  state: ApprovalState,
  requestedAt: Schema.String,
  decidedAt: Schema.NullOr(Schema.String),
  decidedBy: Schema.NullOr(Schema.String).annotations({
    description: "Who decided: `user:<email>` (a person signed in) or `apikey:<id>`; null while pending."
  }),
  note: Schema.NullOr(Schema.String),
  postGroupId: Schema.String,
  channelId: Schema.String,
  channelName: Schema.String,
  templateId: Schema.String,
  templateVersion: Schema.NullOr(Schema.String),
  posts: Schema.Array(Schema.Struct({
    id: Schema.String,
    platform: Schema.String,
    surfaceLabel: Schema.String,
    locale: Schema.String,
    ratio: Schema.String,
    title: Schema.String,
    caption: Schema.String,
    hashtags: Schema.Array(Schema.String),
    scheduledFor: Schema.NullOr(Schema.String),
    state: Schema.String,
    assets: Schema.Array(Asset)
  }))
})
export type ApprovalView = typeof ApprovalView.Type

export const ApprovalPage = Schema.Struct({
  approvals: Schema.Array(ApprovalView),
  total: Schema.Number,
  all: Schema.Number,
  page: Schema.Number,
  perPage: Schema.Number,
  facets: Schema.Struct({ state: Schema.Record({ key: Schema.String, value: Schema.Number }) })
})
export type ApprovalPage = typeof ApprovalPage.Type

export const DecisionBody = Schema.Struct({
  state: Schema.optionalWith(Schema.Literal("APPROVED", "REJECTED"), { default: () => "APPROVED" as const }),
  note: Schema.optional(Schema.String.pipe(Schema.maxLength(1000)))
})

export const Decision = Schema.Struct({
  postIds: Schema.Array(Schema.String),
  state: Schema.Literal("APPROVED", "REJECTED"),
  approvalId: Schema.String,
  note: Schema.NullOr(Schema.String),
  decidedBy: Schema.NullOr(Schema.String),
  decidedAt: Schema.NullOr(Schema.String)
})
export type Decision = typeof Decision.Type
