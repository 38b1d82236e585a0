import { Schema } from "effect"

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
