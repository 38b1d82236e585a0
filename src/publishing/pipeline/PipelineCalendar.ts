import { Schema } from "effect"
import { InstantText } from "../../domain/Instants.js"
import { PostRecord } from "../../posts/PostRecord.js"

/** SPEC Limits: a calendar window spans at most 62 days. */
export const MAX_WINDOW_DAYS = 62
const DAY_MS = 86_400_000

const Instant = Schema.transform(
  InstantText,
  Schema.DateFromSelf,
  { strict: true, decode: (s) => new Date(s), encode: (d) => d.toISOString() }
)

/** `GET /v1/calendar` query. */
export const CalendarParams = Schema.Struct({
  from: Instant.annotations({ description: "Start of the window (included), an ISO 8601 instant." }),
  to: Instant.annotations({ description: "End of the window (excluded); after `from`, at most 62 days later." }),
  channelIds: Schema.optional(Schema.String.pipe(Schema.maxLength(4000))).annotations({
    description: "Comma-separated channel ids; empty or absent means every channel. Ids that are not the " +
      "workspace's match nothing."
  })
})
export type CalendarParams = typeof CalendarParams.Type

export const CalendarDay = Schema.Struct({
  date: Schema.String.annotations({ description: "YYYY-MM-DD (UTC)." }),
  scheduled: Schema.Number,
  published: Schema.Number
})
export type CalendarDay = typeof CalendarDay.Type

export const CalendarKind = Schema.Literal("published", "scheduled")

/** A post the calendar reads: its row, when it goes out (`at`) and its channel's name. */
export const CalendarPostRow = Schema.Struct({
  ...PostRecord.select.pick("id", "jobId").fields,
  at: Schema.DateFromSelf,
  ...PostRecord.select.pick("publishedAt", "state", "channelId").fields,
  channelName: Schema.String,
  ...PostRecord.select.pick("platform", "title").fields
})
export type CalendarPostRow = typeof CalendarPostRow.Type

export const CalendarPost = Schema.Struct({
  id: Schema.String.annotations({ description: "The post id." }),
  postGroupId: Schema.String.annotations({ description: "The job the post belongs to." }),
  at: Schema.String.annotations({ description: "publishedAt when published, else scheduledFor." }),
  kind: CalendarKind,
  ...CalendarPostRow.pick("state", "channelId", "channelName", "platform", "title").fields
})
export type CalendarPost = typeof CalendarPost.Type

export const CalendarAnswer = Schema.Struct({
  from: Schema.String,
  to: Schema.String,
  channels: Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String })),
  days: Schema.Array(CalendarDay),
  posts: Schema.Array(CalendarPost)
})
export type CalendarAnswer = typeof CalendarAnswer.Type

/** The ids asked for; undefined when none are (every channel). */
export const channelIdsOf = (param: string | undefined): ReadonlyArray<string> | undefined => {
  const ids = (param ?? "").split(",").map((id) => id.trim()).filter((id) => id !== "")
  return ids.length === 0 ? undefined : [...new Set(ids)]
}

const dateOf = (at: Date) => at.toISOString().slice(0, 10)

export const calendarPostOf = (row: CalendarPostRow): CalendarPost => ({
  id: row.id,
  postGroupId: row.jobId,
  at: row.at.toISOString(),
  kind: row.publishedAt === null ? "scheduled" : "published",
  state: row.state,
  channelId: row.channelId,
  channelName: row.channelName,
  platform: row.platform,
  title: row.title
})

/** Every UTC day the window [from, to) touches, with how many of the posts fall on it. */
export const daysOf = (from: Date, to: Date, posts: ReadonlyArray<CalendarPost>): Array<CalendarDay> => {
  const days = new Map<string, { scheduled: number; published: number }>()
  const first = Date.parse(`${dateOf(from)}T00:00:00Z`)
  for (let day = first; day < to.getTime(); day += DAY_MS) {
    days.set(dateOf(new Date(day)), { scheduled: 0, published: 0 })
  }
  for (const post of posts) {
    const day = days.get(post.at.slice(0, 10))
    if (day !== undefined) day[post.kind] += 1
  }
  return [...days].map(([date, counts]) => ({ date, ...counts }))
}

/** Why a window is refused, if it is: `to` is the field named either way. */
export const windowProblem = (from: Date, to: Date): string | undefined => {
  if (to.getTime() <= from.getTime()) return "`to` must be after `from`."
  if (to.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY_MS) {
    return `The calendar window spans at most ${MAX_WINDOW_DAYS} days.`
  }
  return undefined
}
