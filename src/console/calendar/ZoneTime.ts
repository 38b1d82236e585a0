import type { HttpServerRequest } from "@effect/platform"

/** The person's time zone and the calendar's wall-clock arithmetic in it, through the runtime's own zone data (Intl). */

export const ZONE_COOKIE = "clipwright_zone"
export const DEFAULT_ZONE = "UTC"

const ZONE_TEXT = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/

/** The zone's canonical name when the runtime knows it (aliases and case resolved), else undefined. */
export const knownZone = (text: string): string | undefined => {
  if (!ZONE_TEXT.test(text)) return undefined
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: text }).resolvedOptions().timeZone
  } catch {
    return undefined
  }
}

/**
 * The zone the request's `clipwright_zone` cookie names (the browser's, or one the person chose): chosen (known),
 * refused (unknown to this server), or none; UTC when not chosen.
 */
export const personZone = (request: HttpServerRequest.HttpServerRequest) => {
  const cookie = request.cookies[ZONE_COOKIE]
  if (cookie === undefined || cookie === "") return { zone: DEFAULT_ZONE, chosen: false, refused: undefined }
  const known = knownZone(cookie)
  return known === undefined
    ? { zone: DEFAULT_ZONE, chosen: false, refused: cookie.slice(0, 64) }
    : { zone: known, chosen: true, refused: undefined }
}

/** Every zone the select offers: the runtime's IANA list with UTC, and the person's own when the list lacks it. */
export const zoneChoices = (current: string): ReadonlyArray<string> => {
  const zones = new Set(["UTC", ...Intl.supportedValuesOf("timeZone")])
  zones.add(current)
  return [...zones].sort()
}

/** A calendar date, as YYYY-MM-DD. */
export interface LocalDate {
  readonly year: number
  readonly month: number
  readonly day: number
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

export const parseDate = (text: string): LocalDate | undefined => {
  const match = DATE.exec(text)
  if (match === null) return undefined
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }
  const check = new Date(Date.UTC(date.year, date.month - 1, date.day))
  return check.getUTCFullYear() === date.year && check.getUTCMonth() === date.month - 1 &&
      check.getUTCDate() === date.day && date.year >= 2000 && date.year <= 2200
    ? date
    : undefined
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

export const dateText = (date: LocalDate) => `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`

/** The date `days` later (earlier when negative), by the calendar, whatever the zone does. */
export const addDays = (date: LocalDate, days: number): LocalDate => {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days))
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() }
}

export const addMonths = (date: LocalDate, months: number): LocalDate => {
  const first = new Date(Date.UTC(date.year, date.month - 1 + months, 1))
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate()
  return { year: first.getUTCFullYear(), month: first.getUTCMonth() + 1, day: Math.min(date.day, last) }
}

/** Monday is 0, Sunday 6. */
export const weekdayOf = (date: LocalDate) =>
  (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7

const formatters = new Map<string, Intl.DateTimeFormat>()
const partsFormatter = (zone: string) => {
  let format = formatters.get(zone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    })
    formatters.set(zone, format)
  }
  return format
}

/** The wall clock of `zone` at an instant. */
export const wallClock = (at: number, zone: string) => {
  const parts: Record<string, number> = {}
  for (const part of partsFormatter(zone).formatToParts(new Date(at))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value)
  }
  return {
    year: parts["year"]!,
    month: parts["month"]!,
    day: parts["day"]!,
    hour: parts["hour"]!,
    minute: parts["minute"]!,
    second: parts["second"]!
  }
}

/** How far `zone`'s clock is ahead of UTC at an instant, in milliseconds. */
const offsetAt = (at: number, zone: string) => {
  const c = wallClock(at, zone)
  const asUtc = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second)
  return asUtc - Math.floor(at / 1000) * 1000
}

/**
 * The instant `zone`'s clocks read the given wall time. A time skipped by a change to summer time moves on by the
 * gap (02:30 becomes 03:30), as clocks do; a time that happens twice (back to winter time) is its first occurrence.
 */
export const instantOf = (date: LocalDate, hour: number, minute: number, zone: string): number => {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour, minute)
  const before = wall - offsetAt(wall - 86_400_000 / 2, zone)
  const after = wall - offsetAt(wall + 86_400_000 / 2, zone)
  const fits = (at: number) => offsetAt(at, zone) === wall - at
  if (fits(before) && fits(after)) return Math.min(before, after)
  if (fits(before)) return before
  if (fits(after)) return after
  return Math.max(before, after)
}

/** The date `zone`'s clocks show at an instant. */
export const dateAt = (at: number, zone: string): LocalDate => {
  const c = wallClock(at, zone)
  return { year: c.year, month: c.month, day: c.day }
}

/** "14:05", the hour and minute `zone`'s clocks show at an instant. */
export const timeAt = (at: number, zone: string) => {
  const c = wallClock(at, zone)
  return `${pad(c.hour)}:${pad(c.minute)}`
}

/** The value a `datetime-local` field (with seconds) shows for an instant in the zone. */
export const localInputOf = (at: number, zone: string) => {
  const c = wallClock(at, zone)
  return `${dateText(c)}T${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}`
}

const LOCAL_INPUT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/

/** A `datetime-local` value read in the zone, as an instant; undefined when it is no such value. */
export const instantOfLocalInput = (text: string, zone: string): number | undefined => {
  const match = LOCAL_INPUT.exec(text)
  const date = match === null ? undefined : parseDate(match[1]!)
  if (match === null || date === undefined) return undefined
  const hour = Number(match[2])
  const minute = Number(match[3])
  const second = Number(match[4] ?? 0)
  return hour > 23 || minute > 59 || second > 59 ? undefined : instantOf(date, hour, minute, zone) + second * 1000
}
