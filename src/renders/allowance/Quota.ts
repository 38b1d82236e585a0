import { Schema } from "effect"
import { StorageBlock } from "../../media/StorageBlock.js"

/** SPEC "Quota": the render allowance of the current calendar month. */
export const QuotaBlock = Schema.Struct({
  allowance: Schema.Number,
  used: Schema.Number,
  extra: Schema.Number,
  remaining: Schema.Number,
  unlimited: Schema.Boolean,
  periodStart: Schema.String,
  periodEnd: Schema.String,
  overridden: Schema.Boolean
})
export type QuotaBlock = typeof QuotaBlock.Type

/** The allowance period: the calendar month (UTC) holding `now`. */
export const periodOf = (now: Date) => {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  return { start, end }
}

/** Seats and partners: how many there are against the limit; `max` is null when unlimited. */
export const CountLimit = Schema.Struct({
  used: Schema.Number,
  max: Schema.NullOr(Schema.Number),
  unlimited: Schema.Boolean
})
export type CountLimit = typeof CountLimit.Type

/** `GET /v1/renders/quota`. */
export const QuotaOverview = Schema.Struct({
  quota: QuotaBlock,
  seats: CountLimit,
  partners: CountLimit,
  storage: StorageBlock
})
export type QuotaOverview = typeof QuotaOverview.Type
