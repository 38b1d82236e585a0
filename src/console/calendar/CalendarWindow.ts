import type { CalendarPost } from "../../publishing/pipeline/PipelineCalendar.js"
import { addDays, addMonths, dateAt, dateText, instantOf, type LocalDate, timeAt, weekdayOf } from "./ZoneTime.js"

export type CalendarView = "month" | "week"

/** What a calendar page shows: the view, the day it was asked about, and the person's zone. */
export interface CalendarAsk {
  readonly view: CalendarView
  readonly date: LocalDate
  readonly zone: string
}

export interface CalendarEntry {
  readonly post: CalendarPost
  /** "14:05" in the person's zone. */
  readonly time: string
}

export interface CalendarDayShown {
  readonly date: LocalDate
  readonly entries: ReadonlyArray<CalendarEntry>
}

/** The days the view shows: the month the date is in, or the week (Monday to Sunday) it is in. */
export const daysShown = (ask: CalendarAsk): ReadonlyArray<LocalDate> => {
  const first = ask.view === "month"
    ? { ...ask.date, day: 1 }
    : addDays(ask.date, -weekdayOf(ask.date))
  const end = ask.view === "month" ? addMonths(first, 1) : addDays(first, 7)
  const days: Array<LocalDate> = []
  for (let day = first; dateText(day) < dateText(end); day = addDays(day, 1)) days.push(day)
  return days
}

/** The instants [from, to) the shown days span in the person's zone: local midnight to local midnight. */
export const windowOf = (ask: CalendarAsk) => {
  const days = daysShown(ask)
  const first = days[0]!
  const after = addDays(days[days.length - 1]!, 1)
  return {
    from: new Date(instantOf(first, 0, 0, ask.zone)),
    to: new Date(instantOf(after, 0, 0, ask.zone))
  }
}

/** Each shown day with the posts whose time falls on it in the person's zone, in order of time. */
export const postsByDay = (ask: CalendarAsk, posts: ReadonlyArray<CalendarPost>): ReadonlyArray<CalendarDayShown> => {
  const byDate = new Map<string, Array<CalendarEntry>>()
  for (const post of posts) {
    const at = Date.parse(post.at)
    const key = dateText(dateAt(at, ask.zone))
    const entries = byDate.get(key) ?? []
    entries.push({ post, time: timeAt(at, ask.zone) })
    byDate.set(key, entries)
  }
  return daysShown(ask).map((date) => ({ date, entries: byDate.get(dateText(date)) ?? [] }))
}

/** The date the Previous and Next links move to. */
export const stepped = (ask: CalendarAsk, direction: 1 | -1): LocalDate =>
  ask.view === "month" ? addMonths(ask.date, direction) : addDays(ask.date, 7 * direction)

const dayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
const monthNames = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December"
]

export const weekdayName = (date: LocalDate) => dayNames[weekdayOf(date)]!

/** "Monday 7 December 2026". */
export const longDate = (date: LocalDate) =>
  `${weekdayName(date)} ${date.day} ${monthNames[date.month - 1]} ${date.year}`

/** "December 2026", or "Week of 7 December 2026". */
export const titleOf = (ask: CalendarAsk) => {
  if (ask.view === "month") return `${monthNames[ask.date.month - 1]} ${ask.date.year}`
  const monday = daysShown(ask)[0]!
  return `Week of ${monday.day} ${monthNames[monday.month - 1]} ${monday.year}`
}

export const DAY_NAMES = dayNames
